// spec.lifecycle.preUpdate, checked on its own (not through the admission that decides it): a plan that
// deletes or patches in place a pod for an update does so only when the pod's annotation says its hook passed,
// or was ignored by policy, for the revision the pod moves to.

import type { ObservedState } from '../replica/observed-state.js';
import type { Plan } from '../model/plan-types.js';
import { preUpdateHookOf } from '../model/lifecycle.js';
import { hookLetsGo, parseHookRecord } from '../replica/hook-state.js';
import { PodAnnotations } from '../../api/types.js';

export function preUpdateHookRespected(observed: ObservedState, plan: Plan): string[] {
  if (preUpdateHookOf(observed.set) === undefined) return [];
  const pods = new Map(observed.pods.map((p) => [p.metadata.name ?? '', p]));
  const out: string[] = [];
  for (const a of plan.actions) {
    if (a.kind !== 'patchPod' && a.kind !== 'deletePod') continue;
    const revision = a.kind === 'patchPod' ? a.revision : a.cause === 'update' ? plan.status.updateRevision : undefined;
    if (revision === undefined || revision === '') continue;
    const record = parseHookRecord(pods.get(a.name)?.metadata.annotations?.[PodAnnotations.preUpdateHook]);
    if (!hookLetsGo(record, revision)) out.push(`preUpdateHook: ${a.kind} of ${a.name} for revision ${revision} before its preUpdate hook passed (${record === undefined ? 'no record' : `${record.phase} for ${record.revision}`})`);
  }
  return out;
}
