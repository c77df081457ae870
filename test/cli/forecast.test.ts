// `forecast`: offline on a manifest with given durations, and live on a set whose pods and events teach them
// (the in-memory cluster with the real controller); deterministic, with candidates and field-pathed refusals.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Resources } from '../../src/api/client.js';
import { forecastCommand, forecastManifestCommand, type ForecastOptions } from '../../src/cli/commands/forecast.js';
import { bufferIO } from '../../src/cli/explain/io.js';
import { parse } from 'yaml';
import { claimTemplates, dbManifest, dbSet, storageClass } from '../sim/claim-scenario.js';
import { converge, setYaml, startWorld, take } from './world.js';

const dir = mkdtempSync(join(tmpdir(), 'ordinal-forecast-'));
const MANIFEST = join(dir, 'web.yaml');
writeFileSync(
  MANIFEST,
  `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web}
spec:
  replicas: 6
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: "app:1"}]}
`,
);

const ROLLBACK = `apiVersion: apps.ordinal.dev/v1
kind: StatefulSet
metadata: {name: web}
spec:
  replicas: 6
  progressDeadlineSeconds: 60
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: "app:1"}]}
  updateStrategy:
    type: RollingUpdate
    rollingUpdate: {maxUnavailable: 1, onFailure: Rollback}
`;

interface Setting {
  label: string;
  converged: number;
  p5: number;
  p50: number;
  p95: number;
  lowestAvailable: { replicas: number; at: number };
  median: { batches: Array<{ at: number; deleted: string[]; created: string[] }> };
}

async function offline(opts: ForecastOptions, manifest = MANIFEST): Promise<{ code: number; out: string; err: string }> {
  const io = bufferIO();
  const code = await forecastManifestCommand(manifest, opts, io);
  return { code, out: io.out, err: io.err };
}

describe('forecast', () => {
  it('offline: a band per setting from the sampled durations, the same for the same seed', async () => {
    const opts: ForecastOptions = { image: [{ container: 'app', image: 'app:2' }], podStartSeconds: [2, 6], terminationSeconds: [1, 3], runs: 10, output: 'json' };
    const r = await offline(opts);
    assert.equal(r.code, 0, r.err);
    const data = JSON.parse(r.out) as { settings: Setting[]; podStartSeconds: { source: string } };
    assert.deepEqual(data.settings.map((s) => s.label), ['current', 'maxUnavailable 2', 'maxUnavailable 3', 'podManagementPolicy Parallel']);
    const current = data.settings[0] as Setting;
    assert.equal(current.converged, 10);
    // OrderedReady, one at a time: each of 6 pods terminates (1–3 s) and starts (2–6 s) in turn.
    assert.ok(current.p5 >= 6 * 3 && current.p95 <= 6 * 9 + 6, `${current.p5}–${current.p95}`);
    assert.ok(current.p5 < current.p95, 'the sampled durations spread the runs');
    assert.equal(current.lowestAvailable.replicas, 5);
    assert.deepEqual(current.median.batches[0], { at: 0, deleted: ['web-5'], created: [] });
    const two = data.settings[1] as Setting;
    assert.ok(two.p50 < current.p50, 'maxUnavailable 2 is faster');
    assert.equal(two.lowestAvailable.replicas, 4);
    assert.equal(data.podStartSeconds.source, '--pod-start-seconds');
    assert.equal((await offline(opts)).out, r.out, 'deterministic');
    assert.notEqual((await offline({ ...opts, seed: 7 })).out, r.out, 'another seed draws again');
  });

  it('text: the table, the assumed durations and the median run\'s batches; --report draws that run', async () => {
    const report = join(dir, 'forecast.html');
    const r = await offline({ image: [{ container: 'app', image: 'app:2' }], runs: 3, candidate: ['maxUnavailable=50%'], report });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^Forecast for web\.yaml: image app=app:2\n3 simulated runs per setting \(seeds 1–3\); each pod draws its durations from\n {2}start \(created → Ready\) +1 s +the default; give --pod-start-seconds\n {2}termination \(deletion → gone\) +1 s +the default; give --termination-seconds\n\n/);
    assert.match(r.out, /\nSETTING +RUNS +P5 +P50 +P95 +LOWEST AVAILABLE +NOTE\ncurrent +3 .*\nmaxUnavailable 50% +3 .*3 of 6/);
    assert.match(r.out, /Batches of the median run \(current, \d+s\):\n {2}\+0s +-web-5\n/);
    assert.match(readFileSync(report, 'utf8'), /<html/);
  });

  it('P50 is the median run\'s duration, the one its report shows; lowest availability counts from the deletion', async () => {
    const slow = join(dir, 'slow.yaml');
    writeFileSync(slow, readFileSync(MANIFEST, 'utf8').replace('replicas: 6', 'replicas: 6\n  minReadySeconds: 10'));
    const report = join(dir, 'median.html');
    const r = await offline({ image: [{ container: 'app', image: 'app:2' }], podStartSeconds: [20, 40], terminationSeconds: [5, 30], runs: 9, candidates: false, report }, slow);
    assert.equal(r.code, 0, r.err);
    const [, median, lowest, at] = /\ncurrent +\d+ +\S+ +(\S+) +\S+ +(\d) of 6 at \+(\S+)/.exec(r.out) ?? [];
    assert.match(r.out, new RegExp(`Batches of the median run \\(current, ${median}\\):`));
    // The report's rollout table: took (convergence, minReadySeconds included) and the same lowest point.
    const took = /<h2>Rollouts<\/h2>.*?<td>([^<]+)<\/td><td>(\d) of 6 at [^<]+<\/td><\/tr>/.exec(readFileSync(report, 'utf8'));
    assert.deepEqual([took?.[1], took?.[2]], [median, lowest]);
    // A pod is unavailable from its deletion on, not from when it is gone (5–30 s later).
    assert.deepEqual([lowest, at], ['5', '0s']);
  });

  it("--set and --candidate address list elements: a container's cpu by its name", async () => {
    const cpu = { image: [{ container: 'app', image: 'app:2' }], runs: 1, output: 'json' as const, candidate: ['spec.template.spec.containers[name=app].resources.requests.cpu=500m'] };
    const r = await offline(cpu);
    assert.equal(r.code, 0, r.err);
    const data = JSON.parse(r.out) as { settings: Setting[] };
    assert.deepEqual(data.settings.map((s) => [s.label, s.converged]), [['current', 1], ['spec.template.spec.containers[name=app].resources.requests.cpu 500m', 1]]);
  });

  it('refuses what cannot be forecast, in one line, exit 2', async () => {
    assert.equal((await offline({})).code, 2);
    const none = await offline({});
    assert.match(none.err, /^error: nothing to forecast: give the change/);
    const bad = await offline({ image: [{ container: 'app', image: 'app:2' }], candidate: ['speed=11'] });
    assert.equal(bad.code, 2);
    assert.match(bad.err, /unknown setting "speed"/);
    const listPath = await offline({ image: [{ container: 'app', image: 'app:2' }], candidate: ['spec.template.spec.containers[name=app.resources.limits.cpu=2'] });
    assert.equal(listPath.code, 2);
    assert.match(listPath.err, /--candidate spec\.template\.spec\.containers\[name=app\.resources\.limits\.cpu: the \[ at 29 is not closed/);
    const noSuch = await offline({ set: [{ path: 'spec.template.spec.containers[name=web].image', value: 'app:2' }], candidates: false, runs: 1 });
    assert.equal(noSuch.code, 2);
    assert.match(noSuch.err, /--set spec\.template\.spec\.containers\[name=web\]\.image: no element of spec\.template\.spec\.containers has name "web": .*\[name=app\]/);
    const onDelete = join(dir, 'ondelete.yaml');
    writeFileSync(onDelete, readFileSync(MANIFEST, 'utf8').replace('spec:\n  replicas', 'spec:\n  updateStrategy: {type: OnDelete}\n  replicas'));
    const io = bufferIO();
    assert.equal(await forecastManifestCommand(onDelete, { image: [{ container: 'app', image: 'app:2' }] }, io), 2);
    assert.match(io.err, /uses OnDelete: the controller replaces a pod only when you delete it/);
  });

  it('live: a creation that waited for a lower ordinal is not a termination time, so the forecast is the next rollout\'s duration', async () => {
    const w = await startWorld(setYaml({ replicas: 4, spec: '      updateStrategy: {rollingUpdate: {maxUnavailable: 2}}\n' }), 'cluster: {podStartSeconds: 10, podTerminationSeconds: 2}\n');
    assert.ok(await converge(w));
    const image = (tag: string) => ({ spec: { template: { spec: { containers: [{ name: 'app', image: tag }] } } } });
    await w.sim.world.user.patch(Resources.statefulSets, 'default', 'web', image('app:2'));
    assert.ok(await converge(w));
    take(w);
    const code = await forecastCommand(w.deps, 'sts/web', { image: [{ container: 'app', image: 'app:3' }], runs: 5, candidates: false, output: 'json' });
    const { out, err } = take(w);
    assert.equal(code, 0, err);
    const data = JSON.parse(out) as { podTerminationSeconds: { samples: number[]; source: string }; settings: Setting[] };
    assert.ok(Math.max(...data.podTerminationSeconds.samples) <= 2.5, data.podTerminationSeconds.source);
    assert.match(data.podTerminationSeconds.source, /; 2 left out, created only after a lower ordinal was Ready$/);
    const start = w.sim.now();
    await w.sim.world.user.patch(Resources.statefulSets, 'default', 'web', image('app:3'));
    assert.ok(await converge(w));
    const actual = (w.sim.now() - start) / 1000;
    const p50 = data.settings[0]?.p50 ?? 0;
    assert.ok(Math.abs(p50 - actual) <= 2, `forecast p50 ${p50} s, the rollout took ${actual} s`);
  });

  it('a set that never converges when created: one line, exit 1', async () => {
    const slow = join(dir, 'slow.yaml');
    writeFileSync(slow, readFileSync(MANIFEST, 'utf8').replace('spec:\n  replicas', 'spec:\n  minReadySeconds: 864000\n  replicas'));
    const io = bufferIO();
    assert.equal(await forecastManifestCommand(slow, { image: [{ container: 'app', image: 'app:2' }] }, io), 1);
    assert.match(io.err, /^error: slow\.yaml does not converge when created on the simulated cluster: web: pod web-0 is not available\n$/);
  });

  it('live: learns the start and termination times from the set\'s pods and the controller\'s events', async () => {
    const w = await startWorld(setYaml({ replicas: 3 }), 'cluster: {podStartSeconds: 4, podTerminationSeconds: 2}\n');
    assert.ok(await converge(w));
    await w.sim.world.user.patch(Resources.statefulSets, 'default', 'web', { spec: { template: { spec: { containers: [{ name: 'app', image: 'app:2' }] } } } });
    assert.ok(await converge(w));
    take(w);
    // Not driven on the world's clock: the command only reads the cluster, then runs simulations of its own.
    const code = await forecastCommand(w.deps, 'sts/web', { image: [{ container: 'app', image: 'app:3' }], runs: 3, candidates: false, output: 'json' });
    const { out, err } = take(w);
    assert.equal(code, 0, err);
    const data = JSON.parse(out) as { subject: string; podStartSeconds: { samples: number[]; source: string }; podTerminationSeconds: { samples: number[]; source: string }; settings: Setting[] };
    assert.equal(data.subject, 'statefulset.apps/web');
    assert.deepEqual(data.podStartSeconds, { samples: [3.5, 4, 4.5, 3.5, 4, 4.5, 3.5, 4, 4.5], source: 'creation → Ready of 3 pods, ±0.5 s' });
    assert.deepEqual(data.podTerminationSeconds, { samples: [1.5, 2, 2.5, 1.5, 2, 2.5, 1.5, 2, 2.5], source: 'SuccessfulDelete → SuccessfulCreate events of 3 pods, ±0.5 s' });
    // Three pods one after another, each 2 s to go and 4 s to be Ready again: 18 s, give or take the
    // second the timestamps cannot tell.
    const { p5 = 0, p95 = 0 } = data.settings[0] ?? {};
    assert.ok(p5 <= 18 && 18 <= p95 && p5 >= 15 && p95 <= 21, `${p5}–${p95}`);
  });

  it('live: every run starts from the pods as the cluster holds them, not from the set created anew', async () => {
    const w = await startWorld(setYaml({ replicas: 3, spec: '      updateStrategy: {rollingUpdate: {partition: 2}}\n' }), 'cluster: {podStartSeconds: 4, podTerminationSeconds: 2}\n');
    assert.ok(await converge(w));
    // A canary: only web-2 runs app:2, below the partition web-0 and web-1 keep app:1.
    await w.sim.world.user.patch(Resources.statefulSets, 'default', 'web', { spec: { template: { spec: { containers: [{ name: 'app', image: 'app:2' }] } } } });
    assert.ok(await converge(w));
    take(w);
    const code = await forecastCommand(w.deps, 'web', { set: [{ path: 'spec.updateStrategy.rollingUpdate.partition', value: 0 }], runs: 2, candidates: false, output: 'json' });
    const { out, err } = take(w);
    assert.equal(code, 0, err);
    const [current] = (JSON.parse(out) as { settings: Setting[] }).settings;
    // Releasing the partition replaces the two canary-less pods, one after the other (a set created anew
    // from the manifest would run app:2 everywhere, with nothing to replace).
    assert.deepEqual(current?.median.batches.map((b) => [...b.deleted, ...b.created.map((c) => `+${c}`)]), [['web-1'], ['+web-1'], ['web-0'], ['+web-0']]);
  });

  it('a claim-template change, offline and live: the claims grow (the live set\'s at the pace its claims\' Events show)', async () => {
    const grown = parse(claimTemplates('2Gi', 'standard'));
    const manifest = join(dir, 'db.yaml');
    writeFileSync(manifest, dbManifest({ replicas: 2, volumeClaimUpdatePolicy: 'InPlace', className: 'standard' }));
    const offline = bufferIO();
    assert.equal(await forecastManifestCommand(manifest, { set: [{ path: 'spec.volumeClaimTemplates', value: grown }], runs: 2, candidates: false, output: 'json' }, offline), 0, offline.err);
    const [manifestForecast] = (JSON.parse(offline.out) as { settings: Setting[] }).settings;
    // Two claims one after the other, each the simulated storage's 10 s.
    assert.equal(manifestForecast?.converged, 2);
    assert.equal(manifestForecast?.p50, 20);

    const w = await startWorld(`${storageClass('standard', true)}\n${dbSet({ replicas: 2, volumeClaimUpdatePolicy: 'InPlace', className: 'standard' })}\n`, 'cluster: {podStartSeconds: 2, storage: {}}\n');
    assert.ok(await converge(w));
    // What a CSI resizer records: data-db-0 took 30 s to grow, once.
    for (const [reason, at] of [['Resizing', '2026-01-01T00:00:10Z'], ['VolumeResizeSuccessful', '2026-01-01T00:00:40Z']] as const) {
      await w.sim.world.user.create(Resources.events, { apiVersion: 'v1', kind: 'Event', metadata: { name: `data-db-0.${reason}`, namespace: 'default' }, involvedObject: { kind: 'PersistentVolumeClaim', name: 'data-db-0', namespace: 'default' }, reason, firstTimestamp: at, lastTimestamp: at });
    }
    take(w);
    const code = await forecastCommand(w.deps, 'db', { set: [{ path: 'spec.volumeClaimTemplates', value: grown }], podStartSeconds: [2], runs: 3, candidates: false, output: 'json' });
    const { out, err } = take(w);
    assert.equal(code, 0, err);
    const [live] = (JSON.parse(out) as { settings: Setting[] }).settings;
    assert.equal(live?.converged, 3);
    // Two claims one after the other, each 30 s give or take the half second the timestamps cannot tell; the
    // band of three runs is their prediction interval, a few seconds either side (forecast-band.ts).
    assert.ok((live?.p50 ?? 0) >= 59 && (live?.p50 ?? 0) <= 61, `p50 ${live?.p50}`);
    assert.ok((live?.p5 ?? 0) >= 55 && (live?.p95 ?? 0) <= 65, `${live?.p5}–${live?.p95}`);
  });

  it('an added claim template, offline: every pod is replaced, highest first (its volumes change)', async () => {
    const added = parse(`[${claimTemplates('1Gi', 'standard').slice(1, -1)}, {metadata: {name: wal}, spec: {accessModes: [ReadWriteOnce], storageClassName: standard, resources: {requests: {storage: 1Gi}}}}]`);
    const manifest = join(dir, 'db-wal.yaml');
    writeFileSync(manifest, dbManifest({ replicas: 2, volumeClaimUpdatePolicy: 'InPlace', className: 'standard' }));
    const io = bufferIO();
    assert.equal(await forecastManifestCommand(manifest, { set: [{ path: 'spec.volumeClaimTemplates', value: added }], runs: 2, candidates: false, output: 'json' }, io), 0, io.err);
    const [current] = (JSON.parse(io.out) as { settings: Setting[] }).settings;
    assert.equal(current?.converged, 2);
    assert.deepEqual(current?.median.batches.map((b) => [...b.deleted, ...b.created.map((c) => `+${c}`)]), [['db-1'], ['+db-1'], ['db-0'], ['+db-0']]);
  });

  it('a set that moves by zone, offline with its Nodes and live on its pods\' nodes: the zone order\'s cost against the same rollout by ordinal only', async () => {
    const nodes = ['a', 'b', 'c'].map((z) => `apiVersion: v1\nkind: Node\nmetadata: {name: node-${z}, labels: {topology.kubernetes.io/zone: zone-${z}}}\n`);
    const spec = '      podManagementPolicy: Parallel\n      updateStrategy: {rollingUpdate: {maxUnavailable: 3, topologyKey: topology.kubernetes.io/zone}}\n';
    const set = setYaml({ apiVersion: 'apps.ordinal.dev/v1', replicas: 6, spec }).replace(/^ {2}- /, '').replace(/^ {4}/gm, '');
    const manifest = join(dir, 'zones.yaml');
    writeFileSync(manifest, [...nodes, set].join('---\n'));
    const r = bufferIO();
    assert.equal(await forecastManifestCommand(manifest, { image: [{ container: 'app', image: 'app:2' }], podStartSeconds: [10], terminationSeconds: [1], runs: 2, output: 'json' }, r), 0, r.err);
    const settings = (JSON.parse(r.out) as { settings: Setting[] }).settings;
    const costs = settings.filter((s) => s.label === 'current' || s.label === 'without topologyKey').map((s) => [s.label, s.p50, s.lowestAvailable.replicas]);
    // two pods per zone, one zone (11 s) at a time, against three pods and then three
    assert.deepEqual(costs, [['current', 33, 4], ['without topologyKey', 22, 3]]);

    // live: every run starts from the pods on their nodes, the nodes with their zones
    const w = await startWorld(nodes.map((n) => `  - ${parse(n) ? JSON.stringify(parse(n)) : ''}\n`).join('') + setYaml({ apiVersion: 'apps.ordinal.dev/v1', replicas: 6, spec }), 'cluster: {podStartSeconds: 10, podTerminationSeconds: 1}\n');
    assert.ok(await converge(w));
    take(w);
    const code = await forecastCommand(w.deps, 'osts/web', { image: [{ container: 'app', image: 'app:2' }], podStartSeconds: [10], terminationSeconds: [1], runs: 2, candidate: ['spec.updateStrategy.rollingUpdate.topologyKey=null'], output: 'json' });
    const live = take(w);
    assert.equal(code, 0, live.err);
    const liveCosts = (JSON.parse(live.out) as { settings: Setting[] }).settings.map((s) => [s.label, s.p50, s.lowestAvailable.replicas]);
    assert.deepEqual(liveCosts, [['current', 33, 4], ['spec.updateStrategy.rollingUpdate.topologyKey null', 22, 3]]);
  });

  it('a set that respects PodDisruptionBudgets, offline and live: the budget\'s cost against the same rollout without it', async () => {
    const budget = '  - {apiVersion: policy/v1, kind: PodDisruptionBudget, metadata: {name: web}, spec: {minAvailable: 4, selector: {matchLabels: {app: web}}}}\n';
    const spec = '      podManagementPolicy: Parallel\n      updateStrategy: {rollingUpdate: {maxUnavailable: 3, respectPodDisruptionBudgets: true}}\n';
    const set = setYaml({ apiVersion: 'apps.ordinal.dev/v1', replicas: 5, spec });
    const withoutBudgets = 'spec.updateStrategy.rollingUpdate.respectPodDisruptionBudgets=false';
    const costs = (out: string) => (JSON.parse(out) as { settings: Setting[] }).settings.map((s) => [s.label, s.p50, s.lowestAvailable.replicas]);
    const manifest = join(dir, 'pdb.yaml');
    // the scenario objects as a manifest: the same two objects, one YAML document each
    writeFileSync(manifest, [budget, set].map((o) => o.replace(/^ {2}- /, '').replace(/^ {4}/gm, '')).join('---\n'));
    const offline = bufferIO();
    assert.equal(await forecastManifestCommand(manifest, { image: [{ container: 'app', image: 'app:2' }], podStartSeconds: [10], terminationSeconds: [1], runs: 2, candidate: [withoutBudgets], output: 'json' }, offline), 0, offline.err);
    // one pod at a time (11 s each) against three, then two at once
    assert.deepEqual(costs(offline.out), [['current', 55, 4], [withoutBudgets.replace('=', ' '), 22, 2]]);

    const w = await startWorld(`${budget}${set}`, 'cluster: {podStartSeconds: 10, podTerminationSeconds: 1}\n');
    assert.ok(await converge(w));
    take(w);
    const code = await forecastCommand(w.deps, 'osts/web', { image: [{ container: 'app', image: 'app:2' }], podStartSeconds: [10], terminationSeconds: [1], runs: 2, candidate: [withoutBudgets], output: 'json' });
    const { out, err } = take(w);
    assert.equal(code, 0, err);
    assert.deepEqual(costs(out), [['current', 55, 4], [withoutBudgets.replace('=', ' '), 22, 2]]);
  });

  it('a release that fails (--fail-at) under onFailure: Rollback: when it is detected, how long the way back takes and how low it goes; in text, data and the report', async () => {
    const rollback = join(dir, 'rollback.yaml');
    writeFileSync(rollback, ROLLBACK);
    const report = join(dir, 'rollback.html');
    const opts: ForecastOptions = { image: [{ container: 'app', image: 'app:2' }], failAt: 2, podStartSeconds: [4], terminationSeconds: [1], runs: 3, candidate: ['maxUnavailable=2'] };
    const r = await offline({ ...opts, output: 'json' }, rollback);
    assert.equal(r.code, 0, r.err);
    const data = JSON.parse(r.out) as { failure: { behavior: string; pod: string }; settings: Array<Setting & { rollback: { aborted: number; detected: { p50: number }; back: { p5: number; p50: number; p95: number }; lowestAvailable: { replicas: number; at: number } } }> };
    assert.deepEqual(data.failure, { behavior: 'ImagePullBackOff', pod: 'web-2' });
    const [current, two] = data.settings;
    // web-5 to web-3 update (5 s each); web-2 never pulls its image and 60 s later the rollout is aborted; then
    // web-2, web-5, web-4, web-3 go back one at a time, 5 s each, never more than one pod down.
    assert.equal(current?.rollback.aborted, 3);
    assert.equal(current?.rollback.detected.p50, 76);
    assert.deepEqual(current?.rollback.back, { p5: 20, p50: 20, p95: 20 });
    assert.deepEqual(current?.rollback.lowestAvailable, { replicas: 5, at: 76 });
    assert.equal(current?.p50, 96);
    assert.equal(two?.rollback.lowestAvailable.replicas, 4);

    const text = await offline({ ...opts, report }, rollback);
    assert.equal(text.code, 0, text.err);
    assert.match(text.out, /\nIf the release fails \(ImagePullBackOff on web-2\): .*\n.*\nSETTING +DETECTED +BACK P5 +BACK P50 +BACK P95 +LOWEST ON THE WAY BACK +NOTE\ncurrent +1m16s +20s +20s +20s +5 of 6 at \+1m16s\nmaxUnavailable 2 .* 4 of 6 at /);
    assert.match(text.out, /\n {2}Rollout to revision \S+ aborted: it made no progress for progressDeadlineSeconds \(60 s\); every pod goes back/);
    // The median run's report shows the abort and the way back in its rollout table.
    assert.match(readFileSync(report, 'utf8'), /at 1m16s<\/span>; back in 20s, lowest available 5 of 6/);

    // --fail alone: the lowest ordinal, where the way back is longest.
    const worst = await offline({ ...opts, failAt: undefined, fail: 'CrashLoopBackOff', candidates: false, output: 'json' }, rollback);
    const worstData = JSON.parse(worst.out) as typeof data;
    assert.deepEqual(worstData.failure, { behavior: 'CrashLoopBackOff', pod: 'web-0' });
    assert.ok((worstData.settings[0]?.rollback.back.p50 ?? 0) > 20, 'six pods go back, not four');
  });

  it('refuses a failing release it cannot forecast, in one line, exit 2', async () => {
    const rollback = join(dir, 'rollback.yaml');
    writeFileSync(rollback, ROLLBACK);
    const image = [{ container: 'app', image: 'app:2' }];
    const outside = await offline({ image, failAt: 6 }, rollback);
    assert.deepEqual([outside.code, outside.err], [2, 'error: --fail-at 6: rollback.yaml has ordinals 0–5\n']);
    const halt = await offline({ image, fail: 'ImagePullBackOff' });
    assert.equal(halt.code, 2);
    assert.match(halt.err, /^error: --fail: web\.yaml does not roll back by itself \(spec\.updateStrategy\.rollingUpdate\.onFailure is not Rollback, an apps\.ordinal\.dev\/v1 field\): a failed release halts where it broke until someone acts, so there is no way back to forecast\n$/);
    const noImage = await offline({ set: [{ path: 'spec.minReadySeconds', value: 3 }], failAt: 1 }, rollback);
    assert.equal(noImage.code, 2);
    assert.match(noImage.err, /^error: --fail, --fail-at: the change runs no new image, and the simulator makes a release fail by its image: give --image CONTAINER=IMAGE\n$/);
  });

  it('live: a set that rolls back by itself, its release failing on the lowest ordinal', async () => {
    const spec = '      progressDeadlineSeconds: 30\n      updateStrategy: {type: RollingUpdate, rollingUpdate: {onFailure: Rollback}}\n';
    const w = await startWorld(setYaml({ apiVersion: 'apps.ordinal.dev/v1', replicas: 3, spec }), 'cluster: {podStartSeconds: 4, podTerminationSeconds: 2}\n');
    assert.ok(await converge(w));
    take(w);
    const code = await forecastCommand(w.deps, 'web', { image: [{ container: 'app', image: 'app:2' }], fail: 'CrashLoopBackOff', runs: 2, candidates: false, output: 'json' });
    const { out, err } = take(w);
    assert.equal(code, 0, err);
    const data = JSON.parse(out) as { failure: { pod: string }; settings: Array<{ rollback: { aborted: number; detected: { p50: number }; back: { p50: number }; lowestAvailable: { replicas: number } } }> };
    assert.equal(data.failure.pod, 'web-0');
    const rb = data.settings[0]?.rollback;
    assert.equal(rb?.aborted, 2);
    assert.ok((rb?.detected.p50 ?? 0) >= 30, `detected at ${rb?.detected.p50} s`);
    assert.ok((rb?.back.p50 ?? 0) > 0);
    assert.equal(rb?.lowestAvailable.replicas, 2);
  });
});

