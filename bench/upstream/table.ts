// The vs-upstream table: per controller, totals over the stories divided by the pods created, the ratio
// Ordinal / upstream, and each goal of the efficiency work with "met" or "NOT MET".
import type { RequestSummary } from './audit.js';
import { percentile } from './latency.js';
import type { PhaseRun } from './scale-stories.js';

export interface StoryRun {
  story: string;
  namespace: string;
  /** The controller process's CPU over the story. */
  cpuMs: number;
  podsCreated: number;
  /** Ready → next action, ms, one per batch that answered a pod (latency.ts). */
  latencies: number[];
}

export interface ControllerRun {
  label: string;
  stories: StoryRun[];
  idleCpuPerMinute: number;
  peakRssMiB: number;
  /** Per story, from the audit log. */
  requests: Map<string, RequestSummary>;
}

export interface Figures {
  podsCreated: number;
  requestsPerPod: number;
  writesPerPod: number;
  statusWrites: number;
  unchangedStatusWrites: number;
  conflictedStatusWrites: number;
  eventWrites: number;
  eventCreates: number;
  cpuPerPodMs: number;
  storyCpuPerPodMs: number;
  latencyP50Ms: number;
  latencyMaxMs: number;
  idleCpuPerMinuteMs: number;
  peakRssMiB: number;
}

export function figuresOf(run: ControllerRun, cpuStory: string): Figures {
  const pods = run.stories.reduce((n, s) => n + s.podsCreated, 0);
  const sum = (f: (r: RequestSummary) => number) => [...run.requests.values()].reduce((n, r) => n + f(r), 0);
  const story = run.stories.find((s) => s.story === cpuStory);
  const latencies = run.stories.flatMap((s) => s.latencies);
  return {
    podsCreated: pods,
    requestsPerPod: sum((r) => r.requests) / pods,
    writesPerPod: sum((r) => r.writes) / pods,
    statusWrites: sum((r) => r.statusWrites),
    unchangedStatusWrites: sum((r) => r.unchangedStatusWrites),
    conflictedStatusWrites: sum((r) => r.conflictedStatusWrites),
    eventWrites: sum((r) => r.eventCreates + r.eventUpdates),
    eventCreates: sum((r) => r.eventCreates),
    cpuPerPodMs: run.stories.reduce((n, s) => n + s.cpuMs, 0) / pods,
    storyCpuPerPodMs: story ? story.cpuMs / story.podsCreated : NaN,
    latencyP50Ms: percentile(latencies, 50),
    latencyMaxMs: latencies.length ? Math.max(...latencies) : NaN,
    idleCpuPerMinuteMs: run.idleCpuPerMinute,
    peakRssMiB: run.peakRssMiB,
  };
}

export interface Goal {
  goal: string;
  upstream: number;
  ordinal: number;
  met: boolean;
}

/** The goals, each as Ordinal's figure against upstream's. */
export function goalsOf(upstream: ControllerRun, ordinal: ControllerRun, cpuStory: string): Goal[] {
  const u = figuresOf(upstream, cpuStory);
  const o = figuresOf(ordinal, cpuStory);
  const within = (x: number, y: number, ratio: number) => x <= y * ratio;
  return [
    { goal: 'writes per pod ≤ 1.0× upstream', upstream: u.writesPerPod, ordinal: o.writesPerPod, met: within(o.writesPerPod, u.writesPerPod, 1) },
    { goal: 'status writes ≤ upstream', upstream: u.statusWrites, ordinal: o.statusWrites, met: o.statusWrites <= u.statusWrites },
    { goal: 'no status write that changes nothing', upstream: u.unchangedStatusWrites, ordinal: o.unchangedStatusWrites, met: o.unchangedStatusWrites === 0 },
    { goal: 'Event writes ≤ upstream', upstream: u.eventWrites, ordinal: o.eventWrites, met: o.eventWrites <= u.eventWrites },
    { goal: `CPU per pod on ${cpuStory} ≤ 1.5×`, upstream: u.storyCpuPerPodMs, ordinal: o.storyCpuPerPodMs, met: within(o.storyCpuPerPodMs, u.storyCpuPerPodMs, 1.5) },
    { goal: 'idle CPU ≤ 1.5×', upstream: u.idleCpuPerMinuteMs, ordinal: o.idleCpuPerMinuteMs, met: within(o.idleCpuPerMinuteMs, u.idleCpuPerMinuteMs, 1.5) },
    { goal: 'ready → next action p50 ≤ 1.5×', upstream: u.latencyP50Ms, ordinal: o.latencyP50Ms, met: within(o.latencyP50Ms, u.latencyP50Ms, 1.5) },
    { goal: 'ready → next action max ≤ 1.5×', upstream: u.latencyMaxMs, ordinal: o.latencyMaxMs, met: within(o.latencyMaxMs, u.latencyMaxMs, 1.5) },
    { goal: 'peak RSS ≤ 1.5×', upstream: u.peakRssMiB, ordinal: o.peakRssMiB, met: within(o.peakRssMiB, u.peakRssMiB, 1.5) },
  ];
}

const ROWS: [keyof Figures, string, number][] = [
  ['podsCreated', 'pods created (all stories)', 0],
  ['requestsPerPod', 'requests per pod, reads included', 2],
  ['writesPerPod', 'writes per pod (Events apart)', 2],
  ['statusWrites', 'status writes', 0],
  ['unchangedStatusWrites', '  of which changed nothing', 0],
  ['conflictedStatusWrites', '  of which 409 Conflict', 0],
  ['eventWrites', 'Event writes (creates + count patches)', 0],
  ['eventCreates', '  of which creates', 0],
  ['cpuPerPodMs', 'CPU per pod, ms', 1],
  ['storyCpuPerPodMs', 'CPU per pod on the 30-replica story, ms', 1],
  ['latencyP50Ms', 'ready → next action p50, ms', 0],
  ['latencyMaxMs', 'ready → next action max, ms', 0],
  ['idleCpuPerMinuteMs', 'idle CPU per minute, ms', 0],
  ['peakRssMiB', 'peak RSS, MiB', 0],
];

export function printTable(upstream: ControllerRun, ordinal: ControllerRun, goals: Goal[], print: (line: string) => void, cpuStory = 'thirty'): void {
  const u = figuresOf(upstream, cpuStory);
  const o = figuresOf(ordinal, cpuStory);
  print('| figure | kube-controller-manager | Ordinal | Ordinal / upstream |');
  print('| --- | ---: | ---: | ---: |');
  for (const [key, label, digits] of ROWS) {
    const ratio = u[key] > 0 ? `${(o[key] / u[key]).toFixed(2)}×` : '—';
    print(`| ${label} | ${u[key].toFixed(digits)} | ${o[key].toFixed(digits)} | ${ratio} |`);
  }
  print('');
  print('| goal | upstream | Ordinal | |');
  print('| --- | ---: | ---: | --- |');
  for (const g of goals) print(`| ${g.goal} | ${round(g.upstream)} | ${round(g.ordinal)} | ${g.met ? 'met' : 'NOT MET'} |`);
  print('');
  print('requests by verb (all stories):');
  const verbs = new Set([...upstream.requests.values(), ...ordinal.requests.values()].flatMap((r) => Object.keys(r.byVerb)));
  const total = (run: ControllerRun, verb: string) => [...run.requests.values()].reduce((n, r) => n + (r.byVerb[verb] ?? 0), 0);
  for (const v of [...verbs].sort()) print(`  ${v.padEnd(40)} ${String(total(upstream, v)).padStart(5)} ${String(total(ordinal, v)).padStart(5)}`);
}

function round(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(2);
}

/** One story at scale under one controller, in its own controller process. */
export interface ScaleRun {
  story: string;
  /** Per phase: its run and the controller's requests received during it. */
  phases: Array<PhaseRun & { requests: RequestSummary }>;
  peakRssMiB: number;
  /** The namespace's Events at the end, by reason: objects, and the occurrences their counts add up to. */
  events: Record<string, { objects: number; occurrences: number }>;
}

export interface ScaleFigures {
  phase: string;
  pods: number;
  cpuPerPodMs: number;
  wallSeconds: number;
  eventWrites: number;
  requests: number;
}

export function scaleFiguresOf(run: ScaleRun): ScaleFigures[] {
  return run.phases.map((p) => ({
    phase: p.phase,
    pods: p.pods,
    cpuPerPodMs: p.cpuMs / Math.max(1, p.pods),
    wallSeconds: (p.to - p.from) / 1000,
    eventWrites: p.requests.eventCreates + p.requests.eventUpdates,
    requests: p.requests.requests,
  }));
}

/** The goals at scale: CPU per pod and wall time ≤ 1.0× upstream's, peak RSS ≤ upstream's. */
export function scaleGoalsOf(upstream: ScaleRun, ordinal: ScaleRun): Goal[] {
  const u = scaleFiguresOf(upstream);
  const o = scaleFiguresOf(ordinal);
  const per = u.flatMap((uf, i) => {
    const of = o[i];
    if (of === undefined) return [];
    const at = `${upstream.story} ${uf.phase}`;
    return [
      { goal: `CPU per pod ≤ 1.0×, ${at}`, upstream: uf.cpuPerPodMs, ordinal: of.cpuPerPodMs, met: of.cpuPerPodMs <= uf.cpuPerPodMs },
      { goal: `wall time ≤ 1.0×, ${at}`, upstream: uf.wallSeconds, ordinal: of.wallSeconds, met: of.wallSeconds <= uf.wallSeconds },
    ];
  });
  return [...per, { goal: `peak RSS ≤ upstream, ${upstream.story}`, upstream: upstream.peakRssMiB, ordinal: ordinal.peakRssMiB, met: ordinal.peakRssMiB <= upstream.peakRssMiB }];
}

const ratioText = (o: number, u: number): string => (u > 0 ? `${(o / u).toFixed(2)}×` : '—');

export function printScaleTable(runs: ReadonlyArray<{ upstream: ScaleRun; ordinal: ScaleRun }>, print: (line: string) => void): void {
  print('| story | phase | pods | CPU per pod, ms (upstream / Ordinal) | ratio | wall time, s | ratio | Event writes | requests | peak RSS, MiB | ratio |');
  print('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const { upstream, ordinal } of runs) {
    const u = scaleFiguresOf(upstream);
    const o = scaleFiguresOf(ordinal);
    u.forEach((uf, i) => {
      const of = o[i];
      if (of === undefined) return;
      const rss = i === 0 ? [`${upstream.peakRssMiB.toFixed(0)} / ${ordinal.peakRssMiB.toFixed(0)}`, ratioText(ordinal.peakRssMiB, upstream.peakRssMiB)] : ['', ''];
      print(
        `| ${upstream.story} | ${uf.phase} | ${uf.pods} / ${of.pods} | ${uf.cpuPerPodMs.toFixed(1)} / ${of.cpuPerPodMs.toFixed(1)} | ${ratioText(of.cpuPerPodMs, uf.cpuPerPodMs)} | ` +
          `${uf.wallSeconds.toFixed(1)} / ${of.wallSeconds.toFixed(1)} | ${ratioText(of.wallSeconds, uf.wallSeconds)} | ${uf.eventWrites} / ${of.eventWrites} | ${uf.requests} / ${of.requests} | ${rss[0]} | ${rss[1]} |`,
      );
    });
  }
  print('');
  print('| goal | upstream | Ordinal | |');
  print('| --- | ---: | ---: | --- |');
  for (const { upstream, ordinal } of runs) for (const g of scaleGoalsOf(upstream, ordinal)) print(`| ${g.goal} | ${round(g.upstream)} | ${round(g.ordinal)} | ${g.met ? 'met' : 'NOT MET'} |`);
}
