// `npm run bench:upstream`: Ordinal's efficiency against kube-controller-manager's statefulset controller on
// a real kube-apiserver (bench/README.md). One control plane with an audit log; the same stories (the
// differential suite's runner and simulated kubelet) first under kube-controller-manager, then under
// `ordinal controller --target=native`, never both at once, each with its real default API rate limit
// (20 QPS, burst 30). Requests come from the audit log (by user agent and namespace), CPU and peak RSS from
// /proc, ready → next action from the stories' watch. The six sets the stories leave behind, converged, then
// give the idle CPU per minute.
//
//   npm run bench:upstream [-- --json] [--ordinal-dir DIR] [--stories a,b] [--idle-seconds N] [--cpu-prof DIR]
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Resources, type ClusterClient } from '../src/api/client.js';
import type { KubeEvent } from '../src/api/types.js';
import { closeSession, createNamespace, deleteNamespace, openSession } from '../test/e2e/cluster-session.js';
import { startControlPlane, type ControlPlane } from '../test/e2e/control-plane.js';
import { controllerArgs, ControllerProcess } from '../test/e2e/controller-process.js';
import { IMAGE, SET_NAME, type Story } from '../test/e2e/differential-stories.js';
import { runStory, type Trace } from '../test/e2e/differential-trace.js';
import { startIsolatedKcm } from '../test/e2e/isolated-kcm.js';
import { parseAuditLog, receivedBetween, requestsOf, summarise, userAgents, type AuditEvent, type RequestSummary } from './upstream/audit.js';
import { readyToAction } from './upstream/latency.js';
import { cpuMs, peakRssMiB } from './upstream/proc.js';
import { runScaleStory, SCALE_STORIES, type PhaseRun, type ScaleStory } from './upstream/scale-stories.js';
import { figuresOf, goalsOf, printScaleTable, printTable, scaleGoalsOf, type ControllerRun, type ScaleRun, type StoryRun } from './upstream/table.js';

const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** The issue's six stories: the blog rollout, Parallel + minReadySeconds, a canary, scaling, 30 replicas, a rollback. */
export const STORIES: Story[] = [
  { name: 'blog-rollout', shape: { replicas: 5, maxUnavailable: 2 }, steps: [{ do: 'image', image: IMAGE.v2 }] },
  { name: 'parallel-min-ready', shape: { replicas: 6, policy: 'Parallel', maxUnavailable: 3, minReadySeconds: 3 }, steps: [{ do: 'image', image: IMAGE.v2 }] },
  { name: 'canary', shape: { replicas: 5, partition: 4 }, steps: [{ do: 'image', image: IMAGE.v2 }, { do: 'partition', partition: 2 }, { do: 'partition', partition: 0 }] },
  { name: 'scale', shape: { replicas: 0 }, steps: [{ do: 'scale', replicas: 6 }, { do: 'scale', replicas: 2 }] },
  { name: 'thirty', shape: { replicas: 30, policy: 'Parallel', maxUnavailable: '25%' }, steps: [{ do: 'image', image: IMAGE.v2 }] },
  { name: 'rollback', shape: { replicas: 4, maxUnavailable: 2 }, steps: [{ do: 'image', image: IMAGE.v2 }, { do: 'image', image: IMAGE.v1 }] },
];
/** The story whose CPU per pod the issue's goal names. */
export const CPU_STORY = 'thirty';

/** Whose requests are whose in the audit log (kube-controller-manager appends the controller's name). */
const UPSTREAM_AGENT = (ua: string) => ua.startsWith('kube-controller-manager/') && ua.endsWith('/statefulset-controller');
const ORDINAL_AGENT = (ua: string) => ua.startsWith('ordinal-controller');

function die(message: string): never {
  process.stderr.write(`bench:upstream: ${message}\n`);
  process.exit(1);
}

function progress(message: string): void {
  process.stderr.write(`[bench:upstream ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

/** dist/ must be current, or bin/ordinal.js would run the sources through tsx and the figures would include it. */
function ensureBuilt(dir: string): void {
  const stamp = join(dir, 'dist', '.build-stamp');
  const newer = (d: string, since: number): boolean =>
    readdirSync(d, { withFileTypes: true }).some((e) => (e.isDirectory() ? newer(join(d, e.name), since) : statMs(join(d, e.name)) > since));
  if (existsSync(stamp) && !newer(join(dir, 'src'), statMs(stamp))) return;
  progress(`building ${dir}/dist (npm run build)`);
  const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: dir, stdio: 'inherit' });
  if (r.status !== 0) die(`npm run build failed in ${dir}`);
}

const statMs = (path: string) => statSync(path).mtimeMs;

interface Owner {
  pid: number;
  stop(): Promise<unknown>;
}

async function startUpstream(cp: ControlPlane): Promise<Owner> {
  // kube-controller-manager's own defaults: --kube-api-qps=20 --kube-api-burst=30
  const kcm = await startIsolatedKcm(cp, ['statefulset-controller']);
  const pidFile = readdirSync(kcm.dir).find((f) => /^kube-controller-manager.*\.pid$/.test(f));
  if (!pidFile) throw new Error(`no pid file in ${kcm.dir}`);
  return { pid: Number(readFileSync(join(kcm.dir, pidFile), 'utf8').trim()), stop: () => kcm.stop() };
}

async function startOrdinal(cp: ControlPlane, dir: string, cpuProfDir: string | undefined): Promise<Owner> {
  const [metrics, health] = [await freePort(), await freePort()];
  const args = controllerArgs({ kubeconfig: cp.kubeconfigPath, namespaces: [], target: 'native', rate: { qps: 20, burst: 30 } })
    .filter((a) => !a.startsWith('--metrics-bind-address') && !a.startsWith('--health-probe-bind-address'))
    .concat(`--metrics-bind-address=127.0.0.1:${metrics}`, `--health-probe-bind-address=127.0.0.1:${health}`);
  const p = new ControllerProcess({ kubeconfig: cp.kubeconfigPath, namespaces: [], label: 'ordinal' }, [process.execPath, [...(cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : []), join(dir, 'bin', 'ordinal.js'), 'controller', ...args]]);
  await p.waitForLog(/started|leading|caches synced|informers/i, 60_000).catch(() => undefined);
  return { pid: p.pid, stop: () => p.stop() };
}

/** Runs every story one after the other under `owner`, then measures it idle with their six sets converged. */
async function phase(cp: ControlPlane, label: string, stories: Story[], idleSeconds: number, start: () => Promise<Owner>): Promise<ControllerRun> {
  const { client } = openSession(cp);
  // the garbage collector and claim protection, as beside Ordinal in production; not measured
  const helpers = await startIsolatedKcm(cp, ['garbage-collector-controller', 'persistentvolumeclaim-protection-controller']);
  const owner = await start();
  const namespaces: string[] = [];
  try {
    const runs: StoryRun[] = [];
    for (const story of stories) {
      const ns = await createNamespace(client, `bench-${label}-${story.name}`.slice(0, 40));
      namespaces.push(ns);
      const before = cpuMs(owner.pid);
      const trace: Trace = await runStory(cp.kubeconfigPath, ns, story);
      const cpu = cpuMs(owner.pid) - before;
      const created = trace.podEvents.filter((e) => e.type === 'Created').length;
      runs.push({ story: story.name, namespace: ns, cpuMs: cpu, podsCreated: created, latencies: readyToAction(trace.podEvents, trace.stepTimes, story.shape.minReadySeconds ?? 0) });
      progress(`${label} ${story.name}: ${created} pods created, ${cpu.toFixed(0)} ms CPU`);
    }
    const idleBefore = cpuMs(owner.pid);
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    const idleCpuPerMinute = ((cpuMs(owner.pid) - idleBefore) * 60) / idleSeconds;
    progress(`${label} idle: ${idleCpuPerMinute.toFixed(0)} ms CPU per minute with ${stories.length} converged sets`);
    return { label, stories: runs, idleCpuPerMinute, peakRssMiB: peakRssMiB(owner.pid), requests: new Map() };
  } finally {
    await owner.stop();
    await helpers.stop();
    await Promise.all(namespaces.map((ns) => client.delete(Resources.statefulSets, ns, SET_NAME).catch(() => undefined)));
    await Promise.all(namespaces.map((ns) => deleteNamespace(client, ns)));
  }
}

/** One story at scale under a controller of its own (so its peak RSS is the story's), the helpers beside it. */
interface ScalePhaseResult {
  phases: PhaseRun[];
  namespace: string;
  peakRssMiB: number;
  events: Record<string, { objects: number; occurrences: number }>;
}

async function scalePhase(cp: ControlPlane, label: string, story: ScaleStory, start: () => Promise<Owner>): Promise<ScalePhaseResult> {
  const { client } = openSession(cp);
  const helpers = await startIsolatedKcm(cp, ['garbage-collector-controller', 'persistentvolumeclaim-protection-controller']);
  const owner = await start();
  const namespace = await createNamespace(client, `bench-${label}-${story.name}`.slice(0, 40));
  try {
    const phases = await runScaleStory(cp.kubeconfigPath, namespace, story, () => cpuMs(owner.pid));
    for (const p of phases) progress(`${label} ${story.name} ${p.phase}: ${p.pods} pods created in ${((p.to - p.from) / 1000).toFixed(1)} s, ${p.cpuMs.toFixed(0)} ms CPU`);
    // Events still queued when the sets converged are written after: they count with the last phase.
    await new Promise((r) => setTimeout(r, 5000));
    const events = await eventsByReason(client, namespace);
    progress(`${label} ${story.name} Events by reason (objects, occurrences): ${Object.entries(events).map(([r, e]) => `${r} ${e.objects}, ${e.occurrences}`).join('; ')}`);
    return { phases, namespace, peakRssMiB: peakRssMiB(owner.pid), events };
  } finally {
    await owner.stop();
    await helpers.stop();
    await deleteNamespace(client, namespace);
  }
}

/** The namespace's Events by reason: how many objects, and the occurrences their counts add up to. */
async function eventsByReason(client: ClusterClient, namespace: string): Promise<Record<string, { objects: number; occurrences: number }>> {
  const out: Record<string, { objects: number; occurrences: number }> = {};
  for (const e of (await client.list<KubeEvent>(Resources.events, namespace)).items) {
    const key = e.reason ?? '';
    const entry = (out[key] ??= { objects: 0, occurrences: 0 });
    entry.objects++;
    entry.occurrences += e.count ?? 1;
  }
  return out;
}

/** Each phase's requests: those received from its start until the next phase's (the last: until the end). */
function scaleRun(story: string, run: ScalePhaseResult, audit: readonly AuditEvent[], matches: (ua: string) => boolean): ScaleRun {
  const requests = requestsOf(audit, matches, new Set([run.namespace]));
  const phases = run.phases.map((p, i) => ({ ...p, requests: summarise(receivedBetween(requests, p.from, run.phases[i + 1]?.from ?? Infinity)) }));
  return { story, phases, peakRssMiB: run.peakRssMiB, events: run.events };
}

function attachRequests(run: ControllerRun, events: readonly AuditEvent[], matches: (ua: string) => boolean): void {
  for (const s of run.stories) run.requests.set(s.story, summarise(requestsOf(events, matches, new Set([s.namespace]))));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      'ordinal-dir': { type: 'string', default: REPO },
      stories: { type: 'string' },
      'idle-seconds': { type: 'string', default: '60' },
      // Ordinal's V8 CPU profile (written when it stops), to see where its CPU goes.
      'cpu-prof': { type: 'string' },
    },
  });
  const binDir = process.env.ORDINAL_K8S_BIN ?? join(homedir(), '.cache', 'ordinal', 'k8s-v1.37.2', 'bin');
  for (const b of ['kube-apiserver', 'kube-controller-manager', 'etcd']) {
    if (!existsSync(join(binDir, b))) die(`no ${b} in ${binDir}: build it with scripts/control-plane/build.sh or set ORDINAL_K8S_BIN`);
  }
  const ordinalDir = resolve(values['ordinal-dir']);
  if (!existsSync(join(ordinalDir, 'bin', 'ordinal.js'))) die(`--ordinal-dir ${ordinalDir} has no bin/ordinal.js`);
  const idleSeconds = Number(values['idle-seconds']);
  if (!(idleSeconds > 0)) die(`--idle-seconds must be a positive number, not ${values['idle-seconds']}`);
  const wanted = values.stories?.split(',');
  const known = [...STORIES, ...SCALE_STORIES].map((s) => s.name);
  const unknown = wanted?.filter((w) => !known.includes(w));
  if (unknown?.length) die(`unknown stories: ${unknown.join(', ')} (known: ${known.join(', ')})`);
  const stories = STORIES.filter((s) => !wanted || wanted.includes(s.name));
  const scaleStories = SCALE_STORIES.filter((s) => !wanted || wanted.includes(s.name));
  ensureBuilt(ordinalDir);

  const started = Date.now();
  progress('starting etcd and kube-apiserver with an audit log');
  const cp = await startControlPlane(binDir, ['--audit']);
  try {
    const startOrd = () => startOrdinal(cp, ordinalDir, values['cpu-prof'] === undefined ? undefined : resolve(values['cpu-prof']));
    const upstream = stories.length > 0 ? await phase(cp, 'kcm', stories, idleSeconds, () => startUpstream(cp)) : undefined;
    const ordinal = stories.length > 0 ? await phase(cp, 'ord', stories, idleSeconds, startOrd) : undefined;
    const scaled: Array<{ story: string; upstream: ScalePhaseResult; ordinal: ScalePhaseResult }> = [];
    for (const story of scaleStories) {
      scaled.push({ story: story.name, upstream: await scalePhase(cp, 'kcm', story, () => startUpstream(cp)), ordinal: await scalePhase(cp, 'ord', story, startOrd) });
    }
    const audit = parseAuditLog(readFileSync(join(cp.dir, 'audit.log'), 'utf8'));
    const runs = [upstream, ordinal].filter((r): r is ControllerRun => r !== undefined);
    if (upstream && ordinal) {
      attachRequests(upstream, audit, UPSTREAM_AGENT);
      attachRequests(ordinal, audit, ORDINAL_AGENT);
    }
    const scale = scaled.map((s) => ({ upstream: scaleRun(s.story, s.upstream, audit, UPSTREAM_AGENT), ordinal: scaleRun(s.story, s.ordinal, audit, ORDINAL_AGENT) }));
    const empty = [...runs.filter((r) => [...r.requests.values()].every((q: RequestSummary) => q.requests === 0)).map((r) => r.label), ...scale.flatMap((s) => [s.upstream, s.ordinal]).filter((r) => r.phases.every((p) => p.requests.requests === 0)).map((r) => r.story)];
    if (empty.length > 0) {
      const agents = [...userAgents(audit)].map(([ua, n]) => `${ua} ×${n}`).join('\n  ');
      die(`no request of ${empty.join(' or ')} found in the audit log; its user agents:\n  ${agents}`);
    }
    const goals = upstream && ordinal ? goalsOf(upstream, ordinal, CPU_STORY) : [];
    if (values.json) {
      const scaleJson = scale.map((s) => ({ story: s.upstream.story, upstream: s.upstream, ordinal: s.ordinal, goals: scaleGoalsOf(s.upstream, s.ordinal) }));
      process.stdout.write(`${JSON.stringify({ ...(upstream && ordinal ? { upstream: plain(upstream), ordinal: plain(ordinal), goals } : {}), scale: scaleJson })}\n`);
    } else {
      if (upstream && ordinal) printTable(upstream, ordinal, goals, (line) => process.stdout.write(`${line}\n`));
      if (scale.length > 0) printScaleTable(scale, (line) => process.stdout.write(`${line}\n`));
    }
    progress(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    closeSession();
    await cp.stop();
  }
}

function plain(run: ControllerRun): object {
  return { figures: figuresOf(run, CPU_STORY), stories: run.stories, requests: Object.fromEntries(run.requests) };
}

main().catch((e: unknown) => die(e instanceof Error ? e.message : String(e)));
