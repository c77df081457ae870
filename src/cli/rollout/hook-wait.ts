// `rollout status` under spec.lifecycle.preUpdate: a pod still on an old revision whose hook record (its
// annotation) names the update revision and has not passed is what the rollout waits for. The pods carry it,
// so `rollout status` says so without the planner.

import { Labels, PodAnnotations, type Instant, type Pod, type StatefulSet } from '../../api/types.js';
import { hookTarget, preUpdateHookOf } from '../../controller/model/lifecycle.js';
import { parseHookRecord } from '../../controller/replica/hook-state.js';
import { humanDuration } from '../explain/durations.js';

/** What the rollout waits for from a preUpdate hook, in words; undefined when no hook holds a pod. */
export function hookWait(set: StatefulSet, pods: readonly Pod[], now: Instant): string | undefined {
  const hook = preUpdateHookOf(set);
  const revision = set.status?.updateRevision;
  if (hook === undefined || revision === undefined) return undefined;
  for (const pod of pods) {
    const r = parseHookRecord(pod.metadata.annotations?.[PodAnnotations.preUpdateHook]);
    if (r === undefined || r.revision !== revision || pod.metadata.labels?.[Labels.revisionHash] === revision) continue;
    const name = pod.metadata.name ?? '';
    const target = hookTarget(hook.handler, name, revision);
    if (r.phase === 'Failed') {
      return `${name} is held: its preUpdate hook (${target}) did not pass within ${hook.timeoutMs / 1000}s${r.message !== undefined ? ` (last: ${r.message})` : ''}; remove its annotation ${PodAnnotations.preUpdateHook} to call it again`;
    }
    if (r.phase === 'Calling') return `Waiting for the preUpdate hook of ${name} (${hook.handler.kind === 'http' ? target : `labels ${target}`}), called ${humanDuration(Math.max(0, now - r.since))} ago...`;
  }
  return undefined;
}
