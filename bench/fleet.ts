// `npm run bench:fleet`: many sets on one kube-apiserver, Ordinal beside kube-controller-manager
// (bench/README.md). For each size, each controller alone on a control plane of its own (etcd +
// kube-apiserver 1.37.2 with an audit log, so that neither inherits the other's server memory): N sets x 10
// pods (OrderedReady) created, then all rolled to a new image (bench/upstream/fleet-story.ts); both
// controllers with the same client rate limit. Figures per controller: CPU and wall time per phase, peak RSS,
// RSS per watched pod, API requests and writes (audit log, by user agent), kube-apiserver's and etcd's
// peak RSS over the run.
//
//   npm run bench:fleet [-- --sets 1000,2000] [--replicas 10] [--qps 100] [--burst 200] [--only ordinal|kcm] [--json]
//                       [--cpu-prof DIR] [--heap-snapshot DIR]
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { closeSession, createNamespace, openSession } from '../test/e2e/cluster-session.js';
import { startControlPlane, type ControlPlane } from '../test/e2e/control-plane.js';
import { controllerArgs, ControllerProcess } from '../test/e2e/controller-process.js';
import { startIsolatedKcm } from '../test/e2e/isolated-kcm.js';
import { receivedBetween, summarise, type AuditEvent, type RequestSummary } from './upstream/audit.js';
import { runFleetStory, type FleetPhase } from './upstream/fleet-story.js';
import { cpuMs, peakRssMiB } from './upstream/proc.js';
import { printFleetTable, type FleetRun } from './upstream/fleet-table.js';

const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));
type Who = 'kcm' | 'ordinal';
const AGENT: Record<Who, (ua: string) => boolean> = {
  kcm: (ua) => ua.startsWith('kube-controller-manager/') && ua.endsWith('/statefulset-controller'),
  ordinal: (ua) => ua.startsWith('ordinal-controller'),
};

function die(message: string): never {
  process.stderr.write(`bench:fleet: ${message}\n`);
  process.exit(1);
}

function progress(message: string): void {
  process.stderr.write(`[bench:fleet ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

/** Current resident set size of `pid`, MiB (VmRSS). */
function rssMiB(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb === undefined ? NaN : Number(kb) / 1024;
}

const pidOf = (dir: string, file: string): number => Number(readFileSync(join(dir, file), 'utf8').trim());

interface Owner {
  pid: number;
  /** Idempotent. */
  stop(): Promise<unknown>;
}

const once = (fn: () => Promise<unknown>): (() => Promise<unknown>) => {
  let done: Promise<unknown> | undefined;
  return () => (done ??= fn());
};

/** dist/ must be current, or bin/ordinal.js would run the sources through tsx and the figures would include it. */
function ensureBuilt(): void {
  const stamp = join(REPO, 'dist', '.build-stamp');
  const newer = (d: string, since: number): boolean =>
    readdirSync(d, { withFileTypes: true }).some((e) => (e.isDirectory() ? newer(join(d, e.name), since) : statSync(join(d, e.name)).mtimeMs > since));
  if (existsSync(stamp) && !newer(join(REPO, 'src'), statSync(stamp).mtimeMs)) return;
  progress('building dist (npm run build)');
  if (spawnSync('npm', ['run', 'build', '--silent'], { cwd: REPO, stdio: 'inherit' }).status !== 0) die('npm run build failed');
}

async function startKcm(cp: ControlPlane, qps: number, burst: number): Promise<Owner> {
  const kcm = await startIsolatedKcm(cp, ['statefulset-controller'], [`--kube-api-qps=${qps}`, `--kube-api-burst=${burst}`]);
  const pidFile = readdirSync(kcm.dir).find((f) => /^kube-controller-manager.*\.pid$/.test(f));
  if (!pidFile) throw new Error(`no pid file in ${kcm.dir}`);
  return { pid: pidOf(kcm.dir, pidFile), stop: once(() => kcm.stop()) };
}

/** Where Ordinal's V8 profiles go: a CPU profile when it stops, a heap snapshot once the fleet has converged. */
interface Profiles {
  cpu?: string;
  heap?: string;
}

async function startOrdinal(cp: ControlPlane, qps: number, burst: number, profiles: Profiles): Promise<Owner> {
  const args = controllerArgs({ kubeconfig: cp.kubeconfigPath, namespaces: [], target: 'native', rate: { qps, burst } });
  const prof = [
    ...(profiles.cpu ? ['--cpu-prof', `--cpu-prof-dir=${profiles.cpu}`] : []),
    ...(profiles.heap ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${profiles.heap}`] : []),
  ];
  const p = new ControllerProcess({ kubeconfig: cp.kubeconfigPath, namespaces: [], label: 'ordinal' }, [process.execPath, [...prof, join(REPO, 'bin', 'ordinal.js'), 'controller', ...args]]);
  await p.waitForLog('caches synced; starting workers', 60_000);
  return { pid: p.pid, stop: once(() => p.stop(120_000)) };
}

/** The audit log's requests of one controller in one namespace, read line by line (it grows to hundreds of MB). */
async function requestsOf(path: string, who: Who, namespace: string): Promise<AuditEvent[]> {
  const out: AuditEvent[] = [];
  const needle = who === 'kcm' ? '"userAgent":"kube-controller-manager/' : '"userAgent":"ordinal-controller';
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    if (!line.includes(needle) || !line.includes('"stage":"ResponseComplete"')) continue;
    const e = JSON.parse(line) as AuditEvent;
    if (AGENT[who](e.userAgent ?? '') && e.objectRef?.namespace === namespace) out.push(e);
  }
  return out;
}

/** One controller alone on a fresh control plane: the fleet created and rolled, with its figures. */
/** Asks `pid` for a heap snapshot (--heapsnapshot-signal) and waits until it is written to `dir`. */
async function heapSnapshot(pid: number, dir: string): Promise<void> {
  const before = new Set(readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 600; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const written = readdirSync(dir).filter((f) => !before.has(f) && f.endsWith('.heapsnapshot'));
    // the file appears when the snapshot starts; it is complete once its size stops changing
    if (written.length > 0) {
      const size = () => statSync(join(dir, written[0]!)).size;
      const a = size();
      await new Promise((r) => setTimeout(r, 2000));
      if (size() === a) return progress(`heap snapshot ${join(dir, written[0]!)}`);
    }
  }
  throw new Error(`no heap snapshot of ${pid} in ${dir}`);
}

async function runOne(binDir: string, who: Who, sets: number, replicas: number, qps: number, burst: number, profiles: Profiles): Promise<FleetRun> {
  const cp = await startControlPlane(binDir, ['--audit']);
  try {
    const { client } = openSession(cp);
    const ns = await createNamespace(client, `fleet-${who}`);
    const server = { apiserver: pidOf(cp.dir, 'kube-apiserver.pid'), etcd: pidOf(cp.dir, 'etcd.pid') };
    const owner = who === 'kcm' ? await startKcm(cp, qps, burst) : await startOrdinal(cp, qps, burst, profiles);
    const peaks = { apiserver: 0, etcd: 0 };
    const sample = () => {
      peaks.apiserver = Math.max(peaks.apiserver, rssMiB(server.apiserver));
      peaks.etcd = Math.max(peaks.etcd, rssMiB(server.etcd));
    };
    try {
      await new Promise((r) => setTimeout(r, 3000));
      const idleRss = rssMiB(owner.pid);
      const cpu: Record<string, number> = {};
      const phases: FleetPhase[] = await runFleetStory({
        kubeconfig: cp.kubeconfigPath,
        namespace: ns,
        sets,
        replicas,
        tick: sample,
        onPhase: (phase, edge) => {
          cpu[`${phase}.${edge}`] = cpuMs(owner.pid);
          // each phase's figures as it ends, so that a run cut short still says what it measured
          if (edge === 'end') progress(`${who} ${sets}x${replicas} ${phase}: CPU ${((cpu[`${phase}.end`]! - cpu[`${phase}.start`]!) / 1000).toFixed(1)} s, RSS ${rssMiB(owner.pid).toFixed(0)} MiB (peak ${peakRssMiB(owner.pid).toFixed(0)}), kube-apiserver peak ${peaks.apiserver.toFixed(0)} MiB, etcd peak ${peaks.etcd.toFixed(0)} MiB`);
        },
        progress: (m) => progress(`${who} ${sets}x${replicas} ${m}`),
      });
      const convergedRss = rssMiB(owner.pid);
      const peakRss = peakRssMiB(owner.pid);
      if (who === 'ordinal' && profiles.heap) await heapSnapshot(owner.pid, profiles.heap);
      progress(`${who} ${sets}x${replicas} idle RSS ${idleRss.toFixed(0)} MiB, converged ${convergedRss.toFixed(0)} MiB, peak ${peakRss.toFixed(0)} MiB`);
      await owner.stop();
      const audit = await requestsOf(join(cp.dir, 'audit.log'), who, ns);
      const requests: RequestSummary[] = phases.map((p, i) => summarise(receivedBetween(audit, p.from, phases[i + 1]?.from ?? Infinity)));
      return {
        who,
        sets,
        replicas,
        phases: phases.map((p, i) => ({ ...p, cpuMs: (cpu[`${p.phase}.end`] ?? NaN) - (cpu[`${p.phase}.start`] ?? NaN), requests: requests[i]! })),
        idleRssMiB: idleRss,
        convergedRssMiB: convergedRss,
        peakRssMiB: peakRss,
        apiserverPeakRssMiB: peaks.apiserver,
        etcdPeakRssMiB: peaks.etcd,
      };
    } finally {
      await owner.stop();
    }
  } finally {
    closeSession();
    await cp.stop();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sets: { type: 'string', default: '1000' },
      replicas: { type: 'string', default: '10' },
      qps: { type: 'string', default: '100' },
      burst: { type: 'string', default: '200' },
      only: { type: 'string' },
      json: { type: 'boolean', default: false },
      'cpu-prof': { type: 'string' },
      'heap-snapshot': { type: 'string' },
    },
  });
  const sizes = values.sets.split(',').map(Number);
  const [replicas, qps, burst] = [Number(values.replicas), Number(values.qps), Number(values.burst)];
  if (sizes.some((n) => !(Number.isInteger(n) && n > 0))) die(`--sets must be positive integers, not ${values.sets}`);
  if (!(Number.isInteger(replicas) && replicas > 0) || !(qps > 0) || !(Number.isInteger(burst) && burst > 0)) die('--replicas, --qps and --burst must be positive numbers');
  if (values.only !== undefined && values.only !== 'kcm' && values.only !== 'ordinal') die(`--only must be kcm or ordinal, not ${values.only}`);
  const binDir = process.env.ORDINAL_K8S_BIN ?? join(homedir(), '.cache', 'ordinal', 'k8s-v1.37.2', 'bin');
  for (const b of ['kube-apiserver', 'kube-controller-manager', 'etcd']) {
    if (!existsSync(join(binDir, b))) die(`no ${b} in ${binDir}: build it with scripts/control-plane/build.sh or set ORDINAL_K8S_BIN`);
  }
  ensureBuilt();
  const who: Who[] = values.only ? [values.only as Who] : ['kcm', 'ordinal'];
  const runs: FleetRun[] = [];
  for (const sets of sizes) {
    for (const w of who) {
      progress(`${w}: ${sets} sets x ${replicas} pods, ${qps} QPS / burst ${burst}`);
      const profiles: Profiles = {
        ...(values['cpu-prof'] !== undefined ? { cpu: resolve(values['cpu-prof']) } : {}),
        ...(values['heap-snapshot'] !== undefined ? { heap: resolve(values['heap-snapshot']) } : {}),
      };
      runs.push(await runOne(binDir, w, sets, replicas, qps, burst, profiles));
    }
  }
  if (values.json) process.stdout.write(`${JSON.stringify(runs)}\n`);
  else printFleetTable(runs, (line) => process.stdout.write(`${line}\n`));
}

main().catch((e: unknown) => die(e instanceof Error ? (e.stack ?? e.message) : String(e)));
