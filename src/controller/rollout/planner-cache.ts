// What the planner remembers between syncs, owned by its caller (a controller instance keeps one; a test or
// a `why` makes a fresh one per call): work keyed by objects that are never mutated, so a hit returns exactly
// what recomputing would and the planner stays a pure function of its inputs.

import type { FieldIssue } from '../../api/errors.js';
import { RevisionMemo } from '../../api/revision/hash.js';
import type { ForecastBand, ObservedDurations } from '../model/learned-durations.js';

export class PlannerCache {
  /** Revision data, hashes and restored specs (api/revision/hash.ts). */
  readonly revisions = new RevisionMemo();
  /** A stored set object's validation issues: validated once per object. */
  readonly validated = new WeakMap<object, FieldIssue[]>();
  /** The band of an observed durations object (slow-rollout.ts): the runtime hands the same object until it learns more. */
  readonly bands = new WeakMap<ObservedDurations, ForecastBand>();
}
