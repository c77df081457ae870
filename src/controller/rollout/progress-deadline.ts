// spec.progressDeadlineSeconds as the controller applies it: the field, `auto` (derived from the set's forecast
// band, slow-rollout.ts), or the default.

import { PROGRESS_DEADLINE_AUTO, type StatefulSet } from '../../api/types.js';
import { defaultProgressDeadlineSeconds, minReadySecondsOf, terminationGraceSecondsOf } from '../model/spec.js';
import { autoDeadlineSeconds } from './slow-rollout.js';
import type { ForecastBand } from '../model/learned-durations.js';

/**
 * spec.progressDeadlineSeconds; `auto` ⇒ derived from the set's forecast band (slow-rollout.ts); absent (apps/v1
 * objects cannot carry it) ⇒ the default.
 */
export function progressDeadlineSecondsOf(set: StatefulSet, band: ForecastBand = {}): number {
  const v = set.spec.progressDeadlineSeconds;
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return v;
  const mrs = minReadySecondsOf(set);
  const auto = v === PROGRESS_DEADLINE_AUTO ? autoDeadlineSeconds(band, mrs, terminationGraceSecondsOf(set)) : undefined;
  return auto ?? defaultProgressDeadlineSeconds(mrs);
}
