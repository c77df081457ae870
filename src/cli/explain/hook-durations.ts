// `forecast`'s cost of a preUpdate hook: the seconds its pods' hook records say their last hooks took
// (replica/hook-state.ts), or `--hook-seconds`.

import { PodAnnotations, type Pod, type StatefulSet } from '../../api/types.js';
import { preUpdateHookOf } from '../../controller/model/lifecycle.js';
import { parseHookRecord } from '../../controller/replica/hook-state.js';
import type { LearnedSeconds } from '../../sim/learned-durations.js';

/** Seconds the set's pods' hooks took to pass, or a default that says to give --hook-seconds; undefined without a hook. */
export function learnHookSeconds(set: StatefulSet, pods: readonly Pod[]): LearnedSeconds | undefined {
  if (preUpdateHookOf(set) === undefined) return undefined;
  const samples = pods.flatMap((p) => {
    const r = parseHookRecord(p.metadata.annotations?.[PodAnnotations.preUpdateHook]);
    return r?.phase === 'Passed' && r.seconds !== undefined ? [r.seconds] : [];
  });
  if (samples.length === 0) return { samples: [1], source: 'the default (no pod records a passed hook); give --hook-seconds' };
  return { samples, source: `the preUpdate hooks of ${samples.length} ${samples.length === 1 ? 'pod' : 'pods'} (their records)` };
}
