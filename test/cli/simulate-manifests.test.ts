// `ordinal simulate` on plain manifests (what `kubectl apply -f` takes) plus a change: the scenario is built
// from them, server-set fields dropped, and the rollout runs on the simulated cluster.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { simulateCommand, type SimulateOptions } from '../../src/cli/commands/simulate.js';
import { parseAllocatable, parseSet } from '../../src/cli/explain/change-flags.js';
import { dbManifest } from '../sim/claim-scenario.js';

const dir = mkdtempSync(join(tmpdir(), 'ordinal-simulate-manifests-'));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const set = (image: string, extra = '') => `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
  uid: 0b7e
  resourceVersion: "77"
  creationTimestamp: "2026-01-01T00:00:00Z"
spec:
  replicas: 4
  podManagementPolicy: Parallel
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: nginx, image: "${image}"}]
${extra}status: {replicas: 4, readyReplicas: 4}
`;
// As `kubectl get sts,svc -o yaml` prints them: a List, with what the server set.
const LIVE = file('live.yaml', `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Service\n  metadata: {name: web}\n  spec: {clusterIP: None, selector: {app: web}}\n- ${set('nginx:1.27').trimEnd().replace(/\n/g, '\n  ')}\n`);

async function run(path: string, opts: SimulateOptions): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await simulateCommand(path, opts, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { code, out, err };
}

describe('simulate on plain manifests', () => {
  it('--print-scenario: the objects without server fields, then a wait, the changed set applied whole, a wait', async () => {
    const r = await run(LIVE, { printScenario: true, image: [{ container: 'nginx', image: 'nginx:1.28' }], set: [{ path: 'spec.updateStrategy.rollingUpdate.maxUnavailable', value: 2 }], podStartSeconds: 5 });
    assert.equal(r.code, 0, r.err);
    const doc = parse(r.out) as { kind: string; name: string; cluster: unknown; objects: Array<Record<string, unknown>>; steps: Array<Record<string, unknown>> };
    assert.equal(doc.kind, 'Scenario');
    assert.equal(doc.name, 'live.yaml: image nginx=nginx:1.28, spec.updateStrategy.rollingUpdate.maxUnavailable=2');
    assert.deepEqual(doc.cluster, { podStartSeconds: 5, allocatable: { cpu: '1000', memory: '4Ti' } });
    assert.deepEqual(doc.objects.map((o) => o.kind), ['Service', 'StatefulSet']);
    assert.deepEqual(doc.objects[1]?.metadata, { name: 'web' });
    assert.equal(doc.objects[1]?.status, undefined);
    assert.deepEqual(doc.steps.map((s) => Object.keys(s)[0]), ['waitFor', 'apply', 'waitFor']);
    const applied = doc.steps[1]?.apply as { spec: { template: { spec: { containers: Array<{ image: string }> } }; updateStrategy: unknown } };
    assert.equal(applied.spec.template.spec.containers[0]?.image, 'nginx:1.28');
    assert.deepEqual(applied.spec.updateStrategy, { rollingUpdate: { maxUnavailable: 2 } });
  });

  it('runs the rollout with the changed maxUnavailable: one new revision, converged', async () => {
    const r = await run(LIVE, { image: [{ container: 'nginx', image: 'nginx:1.28' }], set: [{ path: 'spec.updateStrategy.rollingUpdate.maxUnavailable', value: 2 }] });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /summary +converged=true/);
    assert.match(r.out, /web: replicas=4 ready=4 available=4 current=4 updated=4/);
    assert.match(r.out, /statefulset_controller_statefulset_max_unavailable\{[^}]*statefulset_name="web"[^}]*\} 2/);
    const revisions = new Set([...r.out.matchAll(/pod +default\/web-\d +Created +(web-\w+)/g)].map((m) => m[1]));
    assert.equal(revisions.size, 2, 'the first revision and one for the change');
  });

  it('-f NEW.yaml applies the new version of the file', async () => {
    const next = file('next.yaml', set('nginx:1.29', '  minReadySeconds: 3\n'));
    const r = await run(LIVE, { filename: next, printScenario: true });
    const doc = parse(r.out) as { steps: Array<{ apply?: { spec: { minReadySeconds?: number } } }> };
    assert.equal(doc.steps[1]?.apply?.spec.minReadySeconds, 3);
    const ran = await run(LIVE, { filename: next, replicas: 2 });
    assert.equal(ran.code, 0, ran.err);
    assert.match(ran.out, /web: replicas=2 ready=2 available=2 current=2 updated=2/);
  });

  it('a claim-template change grows the claims: the manifests get simulated storage and expandable classes', async () => {
    const db = (size: string, className?: string) => dbManifest({ replicas: 2, volumeClaimUpdatePolicy: 'InPlace', ...(className ? { className } : {}) }, size);
    for (const className of [undefined, 'fast']) {
      const manifest = file(`db-${className ?? 'default'}.yaml`, db('10Gi', className));
      const grown = (parse(db('20Gi', className)) as { spec: { volumeClaimTemplates: unknown } }).spec.volumeClaimTemplates;
      const r = await run(manifest, { set: [{ path: 'spec.volumeClaimTemplates', value: grown }], format: 'jsonl' });
      assert.equal(r.code, 0, r.err);
      const records = r.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      const resized = records.filter((x) => x.type === 'claim' && x.event === 'Resized').map((x) => x.name);
      assert.deepEqual(resized, ['data-db-1', 'data-db-0'], `${className ?? 'no class'}: both claims grow, highest ordinal first`);
      assert.equal(records.at(-1)?.converged, true);
    }
    const printed = parse((await run(file('db-print.yaml', db('10Gi')), { replicas: 3, printScenario: true })).out) as { cluster: unknown; objects: Array<{ kind: string; metadata: { name: string; annotations?: unknown } }> };
    assert.deepEqual(printed.cluster, { allocatable: { cpu: '1000', memory: '4Ti' }, storage: {} });
    assert.deepEqual(printed.objects.map((o) => [o.kind, o.metadata.name, o.metadata.annotations]), [
      ['StorageClass', 'simulated-default', { 'storageclass.kubernetes.io/is-default-class': 'true' }],
      ['StatefulSet', 'db', undefined],
    ]);
  });

  it("--set addresses list elements: a container's resources by name, a claim template's storage by position", async () => {
    const cpu = parseSet('spec.template.spec.containers[name=nginx].resources.limits.cpu=2');
    const printed = parse((await run(LIVE, { set: [cpu], printScenario: true })).out) as { steps: Array<{ apply?: { spec: { template: { spec: { containers: unknown[] } } } } }> };
    assert.deepEqual(printed.steps[1]?.apply?.spec.template.spec.containers, [{ name: 'nginx', image: 'nginx:1.27', resources: { limits: { cpu: 2 } } }]);
    const rolled = await run(LIVE, { set: [cpu] });
    assert.equal(rolled.code, 0, rolled.err);
    assert.match(rolled.out, /web: replicas=4 ready=4 available=4 current=4 updated=4/);
    const db = file('db-set.yaml', dbManifest({ replicas: 2, volumeClaimUpdatePolicy: 'InPlace' }, '10Gi'));
    const grown = await run(db, { set: [parseSet('spec.volumeClaimTemplates[0].spec.resources.requests.storage=20Gi')], format: 'jsonl' });
    assert.equal(grown.code, 0, grown.err);
    const records = grown.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(records.filter((x) => x.type === 'claim' && x.event === 'Resized').map((x) => [x.name, x.capacity]), [['data-db-1', '20Gi'], ['data-db-0', '20Gi']]);
  });

  it('--set says how to address a list when the path walks into one, or names an element that is not there (exit 2)', async () => {
    for (const [text, message] of [
      ['spec.template.spec.containers.nginx.image=x', /\/live\.yaml: --set spec\.template\.spec\.containers\.nginx\.image: spec\.template\.spec\.containers is a list: address one element by position or by a field, spec\.template\.spec\.containers\[0\], or by name: spec\.template\.spec\.containers\[name=nginx\]\n$/],
      ['spec.template.spec.containers[name=app].image=x', /no element of spec\.template\.spec\.containers has name "app": .*\[name=nginx\]\n$/],
      ['spec.volumeClaimTemplates[0].spec.resources.requests.storage=20Gi', /spec\.volumeClaimTemplates does not exist, so it has no element \[0\]: set the whole list/],
    ] as const) {
      const r = await run(LIVE, { set: [parseSet(text)] });
      assert.equal(r.code, 2, text);
      assert.match(r.err, message);
    }
    assert.throws(() => parseSet('spec.containers[name=app.image=x'), /--set spec\.containers\[name=app\.image: the \[ at 15 is not closed/);
  });

  it('resizes in place on a node with the stated default allocatable, and recreates the pods a smaller --allocatable cannot hold', async () => {
    const db = file('resize.yaml', `apiVersion: apps.ordinal.dev/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 3
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
        - name: db
          image: db:1
          resources: {requests: {cpu: 500m, memory: 1Gi}, limits: {cpu: "1", memory: 1Gi}}
          resizePolicy: [{resourceName: cpu, restartPolicy: NotRequired}, {resourceName: memory, restartPolicy: NotRequired}]
  updateStrategy: {type: RollingUpdate, rollingUpdate: {podUpdatePolicy: InPlaceIfPossible}}
`);
    const cpu = [parseSet('spec.template.spec.containers[name=db].resources.requests.cpu=1'), parseSet('spec.template.spec.containers[name=db].resources.limits.cpu=2')];
    const printed = parse((await run(db, { set: cpu, printScenario: true })).out) as { cluster: { allocatable: unknown } };
    assert.deepEqual(printed.cluster.allocatable, { cpu: '1000', memory: '4Ti' }, 'the stated default');
    const events = async (opts: SimulateOptions) => {
      const r = await run(db, { set: cpu, format: 'jsonl', ...opts });
      assert.equal(r.code, 0, r.err);
      const records = r.out.trim().split('\n').map((l) => JSON.parse(l) as { type: string; event?: string; name?: string; t: number });
      assert.equal((records.at(-1) as { converged?: boolean }).converged, true);
      const change = records.find((x) => x.type === 'step' && x.t > 0)?.t ?? 0;
      return records.filter((x) => x.type === 'pod' && x.t >= change && (x.event === 'Deleted' || x.event === 'Created')).length;
    };
    assert.equal(await events({}), 0, 'resized in place: no pod deleted or created');
    assert.equal(await events({ allocatable: parseAllocatable('cpu=1,memory=64Gi') }), 6, 'one node of 1 cpu holds all three pods: no room for 1 cpu beside the others\' 500m, so each pod is recreated');
    assert.throws(() => parseAllocatable('gpu=1'), /--allocatable gpu=1: only cpu and memory/);
    assert.throws(() => parseAllocatable('cpu=lots'), /--allocatable cpu=lots: must be a non-negative quantity/);
  });

  it('exit 2 with one line for manifests it cannot use, and for change flags on a scenario file', async () => {
    const cases: Array<[string, SimulateOptions, RegExp]> = [
      [file('svc.yaml', 'apiVersion: v1\nkind: Service\nmetadata: {name: s}\n'), {}, /svc\.yaml: the manifests hold no StatefulSet\n$/],
      [LIVE, { image: [{ container: 'app', image: 'x' }] }, /live\.yaml: --image app=x: no StatefulSet has a container named "app" \(web has nginx\)\n$/],
      [file('cm.yaml', `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n${set('a')}`), {}, /the simulator cannot create v1 ConfigMap: leave them out of the manifests\n$/],
      [file('scenario.yaml', 'kind: Scenario\nsteps: []\n'), { replicas: 3 }, /--replicas change plain manifests; a scenario file says its changes in its steps\n$/],
      [LIVE, { set: [{ path: 'spec.replicas', value: -1 }] }, /--print-scenario shows it[^\n]*\n.*replicas/s],
    ];
    for (const [path, opts, message] of cases) {
      const r = await run(path, opts);
      assert.equal(r.code, 2, `${path} ${JSON.stringify(opts)}: ${r.out}`);
      assert.match(r.err, message);
      assert.equal(r.out, '');
    }
  });

  it('says when the change leaves every pod template as it was, so that nothing rolls', async () => {
    const maxUnavailable = { path: 'spec.updateStrategy.rollingUpdate.maxUnavailable', value: 3 };
    const quiet = await run(LIVE, { set: [maxUnavailable] });
    assert.equal(quiet.code, 0, quiet.err);
    assert.equal(
      quiet.err,
      'note: the change leaves the pod template of default/web as it was, so no pod is replaced: updateStrategy settings such as maxUnavailable act only on a template change; add one (e.g. --image CONTAINER=IMAGE, or -f NEW.yaml) to simulate a rollout under them\n',
    );
    assert.doesNotMatch(quiet.out, /Terminating/);
    const rolled = await run(LIVE, { set: [maxUnavailable], image: [{ container: 'nginx', image: 'nginx:1.28' }] });
    assert.equal(rolled.code, 0, rolled.err);
    assert.equal(rolled.err, '');
    assert.match(rolled.out, /Terminating/);
  });

  it('reads the manifests from standard input when FILE is -, as kubectl get -o yaml | … pipes them', () => {
    const cli = new URL('../../bin/ordinal.js', import.meta.url).pathname;
    const r = spawnSync(process.execPath, [cli, 'simulate', '-', '--image', 'nginx=nginx:1.28', '--format', 'jsonl'], { input: readFileSync(LIVE, 'utf8'), encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const summary = JSON.parse(r.stdout.trimEnd().split('\n').pop() ?? '{}') as { type: string; converged: boolean };
    assert.deepEqual([summary.type, summary.converged], ['summary', true]);
    const both = spawnSync(process.execPath, [cli, 'simulate', '-', '-f', '-'], { input: '', encoding: 'utf8' });
    assert.equal(both.status, 2);
    assert.equal(both.stderr, 'stdin: FILE and -f cannot both be - (standard input is read once)\n');
  });
});
