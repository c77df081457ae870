import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeChange, objectChanges, revisionChanges, summarizeChanges } from '../../src/api/object-changes.js';

const template = (image: string, extra: Record<string, unknown> = {}) => ({
  metadata: { labels: { app: 'web' }, ...extra },
  spec: { containers: [{ name: 'app', image, env: [{ name: 'A', value: '1' }] }, { name: 'sidecar', image: 'proxy:1' }] },
});

describe('objectChanges', () => {
  it('names an image change by container', () => {
    const changes = objectChanges(template('nginx:1.27'), template('nginx:1.28'));
    assert.deepEqual(changes, [{ path: 'spec.containers[app].image', from: '"nginx:1.27"', to: '"nginx:1.28"' }]);
    assert.equal(describeChange(changes[0]!), 'image app: nginx:1.27 -> nginx:1.28');
  });

  it('keys named lists by name, so reordering containers is no change', () => {
    const a = template('x');
    const b = { ...a, spec: { containers: [...a.spec.containers].reverse() } };
    assert.deepEqual(objectChanges(a, b), []);
  });

  it('describes a rollout restart by its annotation', () => {
    const changes = objectChanges(template('x'), template('x', { annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-01-01T00:00:00Z' } }));
    assert.equal(summarizeChanges(changes), 'restarted (2026-01-01T00:00:00Z)');
  });

  it('lists added and removed fields and stops after two with a count', () => {
    const a = template('x', { annotations: { gone: 'yes' } });
    const b = template('y', { annotations: { added: 'v' } });
    b.spec.containers[0]!.env = [{ name: 'A', value: '2' }];
    const changes = objectChanges(a, b);
    assert.deepEqual(changes.map(describeChange), [
      '+metadata.annotations.added: v',
      '-metadata.annotations.gone',
      'spec.containers[app].env[A].value: 1 -> 2',
      'image app: x -> y',
    ]);
    assert.equal(summarizeChanges(changes), '+metadata.annotations.added: v; -metadata.annotations.gone; and 2 more');
  });

  it('says so when two templates are equal', () => assert.equal(summarizeChanges(objectChanges(template('x'), template('x'))), '(no template change)'));

  it('says what a revision did to a claim template, keyed by the claim\'s name', () => {
    const claim = (storage: string) => ({ metadata: { name: 'data' }, spec: { resources: { requests: { storage } } } });
    const changes = revisionChanges({ template: template('x'), volumeClaimTemplates: [claim('1Gi')] }, { template: template('x'), volumeClaimTemplates: [claim('2Gi')] });
    assert.deepEqual(changes, [{ path: 'volumeClaimTemplates[data].spec.resources.requests.storage', from: '"1Gi"', to: '"2Gi"' }]);
    assert.equal(summarizeChanges(changes), 'claim data storage: 1Gi -> 2Gi');
  });

  it('reads a set spec\'s paths as a template\'s', () => {
    const spec = (image: string, replicas: number) => ({ replicas, template: template(image) });
    assert.equal(summarizeChanges(objectChanges(spec('a', 3), spec('b', 5)), 3, '(no change)'), 'replicas: 3 -> 5; image app: a -> b');
    assert.equal(summarizeChanges([], 3, '(no change)'), '(no change)');
  });
});
