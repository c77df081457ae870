// The bench:fleet table: per size, kube-controller-manager's and Ordinal's figures side by side with the
// ratio, then the goals (CPU, wall time and peak RSS each at most 1.0x kube-controller-manager's).
import type { RequestSummary } from './audit.js';
import type { FleetPhase } from './fleet-story.js';

export interface FleetRun {
  who: 'kcm' | 'ordinal';
  sets: number;
  replicas: number;
  phases: (FleetPhase & { cpuMs: number; requests: RequestSummary })[];
  /** Synced on an empty cluster, before the story. */
  idleRssMiB: number;
  /** With every pod of the fleet watched, after the rollout converged. */
  convergedRssMiB: number;
  peakRssMiB: number;
  apiserverPeakRssMiB: number;
  etcdPeakRssMiB: number;
}

interface Row {
  label: string;
  value: (r: FleetRun) => number;
  digits: number;
  /** A goal: Ordinal's figure at most this times kube-controller-manager's. */
  goal?: number;
}

const phase = (r: FleetRun, name: FleetPhase['phase']) => r.phases.find((p) => p.phase === name);
const wall = (r: FleetRun, name: FleetPhase['phase']) => ((phase(r, name)?.to ?? NaN) - (phase(r, name)?.from ?? NaN)) / 1000;
const writes = (r: FleetRun, name: FleetPhase['phase']) => phase(r, name)?.requests.writes ?? NaN;
const events = (r: FleetRun) => r.phases.reduce((n, p) => n + p.requests.eventCreates + p.requests.eventUpdates, 0);
const pods = (r: FleetRun) => r.sets * r.replicas;

const ROWS: Row[] = [
  { label: 'create: CPU, s', value: (r) => (phase(r, 'create')?.cpuMs ?? NaN) / 1000, digits: 1, goal: 1 },
  { label: 'create: wall, s', value: (r) => wall(r, 'create'), digits: 1, goal: 1 },
  { label: 'rollout: CPU, s', value: (r) => (phase(r, 'rollout')?.cpuMs ?? NaN) / 1000, digits: 1, goal: 1 },
  { label: 'rollout: wall, s', value: (r) => wall(r, 'rollout'), digits: 1, goal: 1 },
  { label: 'peak RSS, MiB', value: (r) => r.peakRssMiB, digits: 0, goal: 1 },
  { label: 'RSS converged, MiB', value: (r) => r.convergedRssMiB, digits: 0 },
  { label: 'RSS per watched pod, KiB', value: (r) => ((r.convergedRssMiB - r.idleRssMiB) * 1024) / pods(r), digits: 1 },
  { label: 'pods created', value: (r) => r.phases.reduce((n, p) => n + p.pods, 0), digits: 0 },
  { label: 'writes, create (Events apart)', value: (r) => writes(r, 'create'), digits: 0 },
  { label: 'writes, rollout (Events apart)', value: (r) => writes(r, 'rollout'), digits: 0 },
  { label: 'status writes', value: (r) => r.phases.reduce((n, p) => n + p.requests.statusWrites, 0), digits: 0 },
  { label: 'Event writes', value: events, digits: 0 },
  { label: 'requests, all', value: (r) => r.phases.reduce((n, p) => n + p.requests.requests, 0), digits: 0 },
  { label: 'kube-apiserver peak RSS, MiB', value: (r) => r.apiserverPeakRssMiB, digits: 0 },
  { label: 'etcd peak RSS, MiB', value: (r) => r.etcdPeakRssMiB, digits: 0 },
];

const fmt = (n: number, digits: number) => (Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '—');

export function printFleetTable(runs: readonly FleetRun[], print: (line: string) => void): void {
  for (const sets of [...new Set(runs.map((r) => r.sets))]) {
    const kcm = runs.find((r) => r.sets === sets && r.who === 'kcm');
    const ord = runs.find((r) => r.sets === sets && r.who === 'ordinal');
    const replicas = (kcm ?? ord)?.replicas ?? 0;
    print(`\n${sets} sets x ${replicas} pods (OrderedReady), created then rolled`);
    print('| figure | kube-controller-manager | Ordinal | ratio |');
    print('| --- | ---: | ---: | ---: |');
    const goals: string[] = [];
    for (const row of ROWS) {
      const [u, o] = [kcm ? row.value(kcm) : NaN, ord ? row.value(ord) : NaN];
      const ratio = o / u;
      print(`| ${row.label} | ${fmt(u, row.digits)} | ${fmt(o, row.digits)} | ${Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : '—'} |`);
      if (row.goal !== undefined && Number.isFinite(ratio)) goals.push(`${row.label} <= ${row.goal.toFixed(1)}x: ${ratio.toFixed(2)}x, ${ratio <= row.goal ? 'met' : 'NOT MET'}`);
    }
    for (const g of goals) print(`goal: ${g}`);
  }
}
