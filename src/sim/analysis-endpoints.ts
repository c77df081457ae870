// What the simulated network answers to the controller's HTTP checks — a staged rollout's analysis steps and
// preUpdate hooks: the scenario's `cluster.analysisEndpoints` (URL → status code), changed by `endpoint` steps.
// A check's URL is looked up as it is, then without its `revision` parameter, then without its query (a hook's
// GET carries `?pod=NAME&revision=REV`: one entry may answer every pod, another one pod). A URL not listed
// refuses the connection. Checks are answered at once, at virtual time, with the same words the real port uses.

import type { AnalysisProbe } from '../controller/model/plan-types.js';
import type { ProbeOutcome, ProbePort } from '../runtime/analysis-prober.js';
import { statusOutcome } from '../runtime/http-probe.js';
import { drawSeconds, type Seconds } from '../cluster/kubelet/config.js';
import type { Instant } from '../api/types.js';

/** host:port of a URL as Node names it in "connect ECONNREFUSED host:port". */
function hostPort(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
  } catch {
    return url;
  }
}

/** The URL as it is, without its `revision` parameter, and without its query. */
function lookupKeys(url: string): string[] {
  if (!URL.canParse(url)) return [url];
  const u = new URL(url);
  if (u.search === '') return [url];
  const keys = [url];
  if (u.searchParams.has('revision')) {
    const v = new URL(url);
    v.searchParams.delete('revision');
    keys.push(v.toString());
  }
  keys.push(`${u.origin}${u.pathname}`);
  return keys;
}

/** cluster.preUpdateHookSeconds: how long a hook no listed URL answers takes, drawn per pod and revision. */
export interface HookTiming {
  seconds: Seconds;
  seed: number;
  now: () => Instant;
}

export class AnalysisEndpoints {
  private readonly answers: Map<string, number>;
  /** A hook's first GET, by probe key (pod and revision): it passes `seconds` after it. */
  private readonly firstCalls = new Map<string, Instant>();

  constructor(
    initial: Readonly<Record<string, number>> = {},
    private readonly hooks?: HookTiming,
  ) {
    this.answers = new Map(Object.entries(initial));
  }

  /** From now on `url` answers `status`; null: it refuses the connection. */
  set(url: string, status: number | null): void {
    if (status === null) this.answers.delete(url);
    else this.answers.set(url, status);
  }

  answer(probe: AnalysisProbe): ProbeOutcome {
    const status = lookupKeys(probe.url).map((k) => this.answers.get(k)).find((s) => s !== undefined) ?? this.hookAnswer(probe);
    return status === undefined ? { ok: false, message: `connect ECONNREFUSED ${hostPort(probe.url)}` } : statusOutcome(status, probe.expectedStatus);
  }

  /** A hook's GET no URL answers, under cluster.preUpdateHookSeconds: 503 until its drawn time has passed since its first GET. */
  private hookAnswer(probe: AnalysisProbe): number | undefined {
    if (this.hooks === undefined || probe.pod === undefined) return undefined;
    const now = this.hooks.now();
    const first = this.firstCalls.get(probe.key) ?? now;
    this.firstCalls.set(probe.key, first);
    return now >= first + drawSeconds(this.hooks.seconds, this.hooks.seed, `${probe.key}/hook`) * 1000 ? probe.expectedStatus : 503;
  }

  readonly port: ProbePort = (probe) => Promise.resolve(this.answer(probe));
}
