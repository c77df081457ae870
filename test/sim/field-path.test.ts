import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldPathError, parseFieldPath, setFieldPath } from '../../src/sim/field-path.js';

const set = () => ({
  spec: {
    replicas: 3,
    template: { spec: { containers: [{ name: 'app', image: 'app:1' }, { name: 'sidecar', image: 'envoy:1' }] } },
    volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { resources: { requests: { storage: '10Gi' } } } }],
  },
});

const refused = (path: string, message: RegExp) => {
  const target = set();
  assert.throws(() => setFieldPath(target, path, 'x'), (e: unknown) => e instanceof FieldPathError && message.test(e.message), path);
  assert.deepEqual(target, set(), `${path}: nothing set`);
};

describe('field paths of --set', () => {
  it('reads dotted keys, [N], [FIELD=VALUE] and \\. inside a key', () => {
    assert.deepEqual(parseFieldPath('spec.template.spec.containers[name=app].resources.limits.cpu'), [
      { kind: 'key', key: 'spec' },
      { kind: 'key', key: 'template' },
      { kind: 'key', key: 'spec' },
      { kind: 'key', key: 'containers' },
      { kind: 'match', field: 'name', value: 'app' },
      { kind: 'key', key: 'resources' },
      { kind: 'key', key: 'limits' },
      { kind: 'key', key: 'cpu' },
    ]);
    assert.deepEqual(parseFieldPath('spec.volumeClaimTemplates[0].spec'), [{ kind: 'key', key: 'spec' }, { kind: 'key', key: 'volumeClaimTemplates' }, { kind: 'index', index: 0 }, { kind: 'key', key: 'spec' }]);
    assert.deepEqual(parseFieldPath('metadata.annotations.example\\.com/owner'), [{ kind: 'key', key: 'metadata' }, { kind: 'key', key: 'annotations' }, { kind: 'key', key: 'example.com/owner' }]);
    assert.deepEqual(parseFieldPath('a[1][name=x.y]'), [{ kind: 'key', key: 'a' }, { kind: 'index', index: 1 }, { kind: 'match', field: 'name', value: 'x.y' }]);
  });

  it('refuses a malformed path, saying how to write one', () => {
    for (const [path, message] of [
      ['spec..replicas', /empty field name/],
      ['spec.', /empty field name at the end/],
      ['[0].spec', /needs its list first/],
      ['spec.containers[name=app', /not closed: write \[N\] or \[FIELD=VALUE\]/],
      ['spec.containers[app]', /\[app\] is not a list element: write \[N\] \(a position from 0\) or \[FIELD=VALUE\]/],
      ['spec.containers[-1]', /\[-1\] is not a list element/],
      ['spec.containers[0]image', /a dot or \[ must follow the \]/],
      ['spec.containers]', /without its \[/],
    ] as const) assert.throws(() => parseFieldPath(path), (e: unknown) => e instanceof FieldPathError && message.test(e.message), path);
  });

  it("sets a container's field by name and a claim template's by position, making the objects on the way", () => {
    const target = set();
    setFieldPath(target, 'spec.template.spec.containers[name=app].resources.limits.cpu', 2);
    setFieldPath(target, 'spec.volumeClaimTemplates[0].spec.resources.requests.storage', '20Gi');
    setFieldPath(target, 'spec.template.spec.containers[1].image', 'envoy:2');
    setFieldPath(target, 'spec.updateStrategy.rollingUpdate.maxUnavailable', 2);
    assert.deepEqual(target.spec.template.spec.containers, [{ name: 'app', image: 'app:1', resources: { limits: { cpu: 2 } } }, { name: 'sidecar', image: 'envoy:2' }]);
    assert.equal(target.spec.volumeClaimTemplates[0]?.spec.resources.requests.storage, '20Gi');
    assert.deepEqual((target.spec as Record<string, unknown>).updateStrategy, { rollingUpdate: { maxUnavailable: 2 } });
  });

  it('replaces a list whole, and an element named by its last segment', () => {
    const target = set();
    setFieldPath(target, 'spec.template.spec.containers[name=sidecar]', { name: 'sidecar', image: 'envoy:3' });
    setFieldPath(target, 'spec.volumeClaimTemplates', []);
    assert.deepEqual(target.spec.template.spec.containers[1], { name: 'sidecar', image: 'envoy:3' });
    assert.deepEqual(target.spec.volumeClaimTemplates, []);
  });

  it('says which elements there are when a path names none, and how to address a list it walks into', () => {
    refused('spec.template.spec.containers.app.image', /^spec\.template\.spec\.containers is a list: address one element by position or by a field, spec\.template\.spec\.containers\[0\] … spec\.template\.spec\.containers\[1\], or by name: spec\.template\.spec\.containers\[name=app\], spec\.template\.spec\.containers\[name=sidecar\]$/);
    refused('spec.template.spec.containers.0.image', /containers is a list: address one element/);
    refused('spec.template.spec.containers[name=web].image', /^no element of spec\.template\.spec\.containers has name "web": .*\[name=app\], .*\[name=sidecar\]$/);
    refused('spec.volumeClaimTemplates[3].spec', /^spec\.volumeClaimTemplates has 1 element\(s\), so \[3\] is not one: spec\.volumeClaimTemplates\[0\]$/);
    refused('spec.template.spec.initContainers[0].image', /^spec\.template\.spec\.initContainers does not exist, so it has no element \[0\]: set the whole list \(spec\.template\.spec\.initContainers=\[…\]\)$/);
    refused('spec.replicas[0]', /^spec\.replicas is not a list/);
    refused('spec.replicas.value', /^spec\.replicas is 3, not an object: it has no field value$/);
  });
});
