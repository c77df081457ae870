// spec.lifecycle.preUpdate: what a pod's annotation says of its hook (PodAnnotations.preUpdateHook). The
// controller writes it — Calling when it first calls the hook for an update revision, then Passed, Ignored or
// Failed — so the result outlives the controller process: a restart neither calls a passed hook again nor
// forgets one that failed. A value that does not parse reads as no record (the hook is called again).

import { fromTimestamp, toTimestamp, type Instant } from '../../api/types.js';

export type HookPhase = 'Calling' | 'Passed' | 'Ignored' | 'Failed';
const PHASES: readonly string[] = ['Calling', 'Passed', 'Ignored', 'Failed'];

export interface HookRecord {
  /** The update revision the hook was called for. */
  revision: string;
  phase: HookPhase;
  /** When the controller first called it (whole seconds). */
  since: Instant;
  /** Ignored, Failed: the last answer before the timeout. */
  message?: string;
  /** Passed, Ignored, Failed: seconds from the first call to the result (what `forecast` learns a hook's cost from). */
  seconds?: number;
}

/** The record of an annotation's value; undefined when absent or unreadable. */
export function parseHookRecord(value: string | undefined): HookRecord | undefined {
  if (value === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (raw === null || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  const since = typeof r.since === 'string' ? fromTimestamp(r.since) : undefined;
  if (typeof r.revision !== 'string' || typeof r.phase !== 'string' || !PHASES.includes(r.phase) || since === undefined) return undefined;
  return {
    revision: r.revision,
    phase: r.phase as HookPhase,
    since,
    ...(typeof r.message === 'string' ? { message: r.message } : {}),
    ...(typeof r.seconds === 'number' && Number.isFinite(r.seconds) && r.seconds >= 0 ? { seconds: r.seconds } : {}),
  };
}

/** The annotation's value for a record (keys in a fixed order, so equal records are equal strings). */
export function formatHookRecord(r: HookRecord): string {
  return JSON.stringify({ revision: r.revision, phase: r.phase, since: toTimestamp(r.since), ...(r.message !== undefined ? { message: r.message } : {}), ...(r.seconds !== undefined ? { seconds: r.seconds } : {}) });
}

/** The hook has let the pod go for `revision`: it passed, or its failure was ignored by policy. */
export const hookLetsGo = (r: HookRecord | undefined, revision: string): boolean => r?.revision === revision && (r.phase === 'Passed' || r.phase === 'Ignored');
