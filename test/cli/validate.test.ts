import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateCommand } from '../../src/cli/commands/validate.js';
import { bufferIO } from '../../src/cli/explain/io.js';
import { manifestObjects } from '../../src/cli/explain/manifest-docs.js';

const sts = (apiVersion: string, name: string, spec = '') => `apiVersion: ${apiVersion}
kind: StatefulSet
metadata: {name: ${name}}
spec:
  replicas: 3
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: c, image: "app:1"}]}
${spec}`;

function run(files: Record<string, string>, opts: Parameters<typeof validateCommand>[1] = {}) {
  const io = bufferIO();
  const code = validateCommand(Object.keys(files), opts, io, (p) => {
    const text = files[p];
    if (text === undefined) throw new Error(`ENOENT: ${p}`);
    return text;
  });
  return { code, out: io.out, err: io.err };
}

describe('ordinal validate', () => {
  it('exits 0 and says valid for good sets of both APIs', () => {
    const r = run({ 'a.yaml': `${sts('apps/v1', 'web')}---\n${sts('apps.ordinal.dev/v1', 'db', '  updateStrategy: {type: EnforcedRollingUpdate}\n')}` });
    assert.equal(r.code, 0);
    assert.equal(r.out, 'a.yaml: document 1: statefulset.apps/web: valid\na.yaml: document 2: statefulset.apps.ordinal.dev/db: valid\n');
  });

  it('exits 1 with every field-pathed issue, in the API server\'s wording', () => {
    const bad = sts('apps/v1', 'web', '  minReadySeconds: -1\n  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: "150%"}}\n');
    const r = run({ 'bad.yaml': bad });
    assert.equal(r.code, 1);
    assert.equal(
      r.out,
      [
        'bad.yaml: document 1: statefulset.apps/web: invalid',
        '  - spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%',
        '  - spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
        '',
      ].join('\n'),
    );
  });

  it('rejects an extension on apps/v1 and points to the CRD', () => {
    const r = run({ 'x.yaml': sts('apps/v1', 'web', '  progressDeadlineSeconds: 60\n') });
    assert.equal(r.code, 1);
    assert.match(r.out, /spec\.progressDeadlineSeconds: Forbidden: .*apps\.ordinal\.dev\/v1/);
  });

  it('applies --feature-gates as the API server does (Recreate needs its gate)', () => {
    const file = { 'r.yaml': sts('apps/v1', 'web', '  updateStrategy: {type: Recreate}\n') };
    assert.equal(run(file).code, 0);
    const off = run(file, { featureGates: 'StatefulSetRecreateStrategy=false' });
    assert.equal(off.code, 1);
    assert.match(off.out, /spec\.updateStrategy: Invalid value: .*must be 'RollingUpdate' or 'OnDelete'/);
  });

  it('exits 2 for an unknown feature gate', () => {
    const r = run({ 'a.yaml': sts('apps/v1', 'web') }, { featureGates: 'NoSuchGate=true' });
    assert.equal(r.code, 2);
    assert.match(r.err, /unrecognized feature gate: NoSuchGate/);
  });

  it('refuses a StatefulSet apiVersion that is not served', () => {
    const r = run({ 'a.yaml': sts('apps/v1beta1', 'web') });
    assert.equal(r.code, 1);
    assert.match(r.out, /apiVersion: Unsupported value: "apps\/v1beta1": supported values: "apps\/v1", "apps\.ordinal\.dev\/v1"/);
  });

  it('skips other kinds and validates List items and scenario objects', () => {
    const list = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' } }] });
    const scenario = `kind: Scenario\nobjects:\n${sts('apps/v1', 'web').replace(/^/gm, '    ').replace(/^ {4}apiVersion/, '  - apiVersion')}`;
    const r = run({ 'l.json': `${list}\n---\n${sts('apps/v1', 'db')}`, 's.yaml': scenario });
    assert.equal(r.code, 0);
    assert.match(r.out, /l\.json: document 1, items\[0\]: v1 Service s: skipped \(not a StatefulSet\)/);
    assert.match(r.out, /s\.yaml: document 1, objects\[0\]: statefulset\.apps\/web: valid/);
  });

  it('exits 2 for an unreadable file or no StatefulSet at all, 1 for a YAML error', () => {
    assert.equal(run({ 'ok.yaml': sts('apps/v1', 'web'), 'missing.yaml': undefined as unknown as string }).code, 2);
    const broken = run({ 'b.yaml': 'kind: [unclosed' });
    assert.equal(broken.code, 1);
    assert.equal(broken.err, 'b.yaml:1:16: Flow sequence in block collection must be sufficiently indented and end with a ]\n');
    const none = run({ 'svc.yaml': 'apiVersion: v1\nkind: Service\nmetadata: {name: s}\n' });
    assert.equal(none.code, 2);
    assert.match(none.err, /no StatefulSet found/);
  });

  for (const [typo, spec, path] of [
    ['spec.replicaz', '  replicaz: 5\n', 'spec.replicaz'],
    ['podManagmentPolicy', '  podManagmentPolicy: Parallel\n', 'spec.podManagmentPolicy'],
    ['maxUnavailble', '  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailble: 3}}\n', 'spec.updateStrategy.rollingUpdate.maxUnavailble'],
    ['__proto__', '  __proto__: {polluted: true}\n', 'spec.__proto__'],
    ['constructor', '  constructor: {polluted: true}\n', 'spec.constructor'],
  ] as const) {
    it(`refuses the unknown field ${typo} as strict field validation does, for both APIs`, () => {
      for (const apiVersion of ['apps/v1', 'apps.ordinal.dev/v1']) {
        const r = run({ 't.yaml': sts(apiVersion, 'web', spec) });
        assert.equal(r.code, 1);
        assert.match(r.out, new RegExp(`: invalid\n  - unknown field "${path.replace(/[.[\]]/g, '\\$&')}"\n$`));
      }
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });
  }

  it('refuses an unknown field of the pod template (Kubernetes 1.37\'s PodTemplateSpec), for both APIs', () => {
    for (const apiVersion of ['apps/v1', 'apps.ordinal.dev/v1']) {
      const r = run({ 't.yaml': sts(apiVersion, 'web').replace('image: "app:1"', 'image: "app:1", imagePullPolicyy: Always') });
      assert.equal(r.code, 1);
      assert.match(r.out, /: invalid\n {2}- unknown field "spec\.template\.spec\.containers\[0\]\.imagePullPolicyy"\n$/);
    }
  });

  it('gives the API server\'s strict decoding message in JSON output', () => {
    const r = run({ 't.yaml': sts('apps/v1', 'web', '  replicaz: 5\n') }, { output: 'json' });
    const [result] = JSON.parse(r.out) as { message: string; issues: { path: string; type: string }[] }[];
    assert.equal(result?.message, 'StatefulSet in version "v1" cannot be handled as a StatefulSet: strict decoding error: unknown field "spec.replicaz"');
    assert.deepEqual(result?.issues.map((i) => [i.path, i.type]), [['spec.replicaz', 'UnknownField']]);
  });

  it('refuses `cpu: lots` with the field path', () => {
    const bad = sts('apps/v1', 'web').replace('image: "app:1"', 'image: "app:1", resources: {requests: {cpu: lots}}');
    const r = run({ 'q.yaml': bad });
    assert.equal(r.code, 1);
    assert.match(r.out, /spec\.template\.spec\.containers\[0\]\.resources\.requests\[cpu\]: Invalid value: "lots": quantities must match the regular expression/);
  });

  it('refuses duplicate keys, an alias bomb and 1,000-deep nesting in one line naming file and position (exit 1)', () => {
    const bomb = ['a0: &a0 [x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 9 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(9).fill(`*a${i}`).join(', ')}]`)].join('\n');
    const cases: [string, string][] = [
      [sts('apps/v1', 'web', '  replicas: 4\n'), 'd.yaml:10:3: key "replicas" already set in map\n'],
      [`${sts('apps/v1', 'web')}${bomb}\n`, 'd.yaml:16:10: aliases expand to more than 1000000 nodes\n'],
      [`${sts('apps/v1', 'web')}deep: ${'['.repeat(1000)}${']'.repeat(1000)}\n`, 'd.yaml:10:106: nesting is deeper than 100 levels\n'],
    ];
    for (const [text, err] of cases) {
      const r = run({ 'd.yaml': text });
      assert.deepEqual([r.code, r.err, r.out], [1, err, '']);
    }
  });

  it('accepts YAML merge keys, as kubectl does', () => {
    const merged = sts('apps/v1', 'web').replace('metadata: {labels: {app: web}}', 'metadata: {labels: {<<: {app: web}, tier: db}}');
    assert.equal(run({ 'm.yaml': merged }).code, 0);
  });

  it('prints JSON results with -o json', () => {
    const r = run({ 'a.yaml': sts('apps/v1', 'web', '  minReadySeconds: -2\n') }, { output: 'json' });
    const results = JSON.parse(r.out) as { outcome: string; issues: { path: string; message: string }[] }[];
    assert.equal(results[0]?.outcome, 'invalid');
    assert.deepEqual(results[0]?.issues.map((i) => i.path), ['spec.minReadySeconds']);
  });
});

describe('manifestObjects', () => {
  it('skips empty documents but keeps the numbering', () =>
    assert.deepEqual(manifestObjects('kind: X\n---\n---\nkind: Y\n').objects, [
      { where: 'document 1', value: { kind: 'X' } },
      { where: 'document 3', value: { kind: 'Y' } },
    ]));
});
