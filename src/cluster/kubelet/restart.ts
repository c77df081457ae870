// In-place restarts: a container whose image was changed on the live pod is stopped (as long as a deletion
// of the pod would take: podTerminationSeconds, capped by the grace period) and started again on the new
// image, keeping its pod (uid, node, IP, volumes). While it stops, the old container runs on and its status
// is unchanged. The stop's start is the kubelet's own memory (a kubelet that starts again stops the container
// anew); the rest is read off the status, so a restart the status shows is continued by any kubelet.

import { fromTimestamp, type Container, type ContainerStatus, type Instant, type Pod } from '../../api/types.js';
import { containerPlan, terminationDelayMs, type ContainerPlan, type KubeletConfig } from './config.js';

/** The reason of the old container's end when the kubelet restarts it for a new image (it stops gracefully). */
export const IN_PLACE_EXIT = 'Completed';

/** Containers being stopped for a new image: container name → the image it restarts on, and since when. */
export type Stops = Map<string, { image: string; since: Instant }>;

type Terminated = { reason?: string; startedAt?: string; finishedAt?: string };

/** The plan with the in-place restart its status reports (the new image, the old container `Completed`), if any. */
function continued(plan: ContainerPlan, status: ContainerStatus | undefined, t0: Instant): ContainerPlan {
  const last = (status?.['lastState'] as { terminated?: Terminated } | undefined)?.terminated;
  const finishedAt = fromTimestamp(last?.finishedAt);
  if (status?.image !== plan.image || last?.reason !== IN_PLACE_EXIT || finishedAt === undefined) return plan;
  return { ...plan, startMs: finishedAt - t0 + plan.startMs, restart: { count: status.restartCount, finishedAt, ...(last.startedAt ? { startedAt: last.startedAt } : {}) } };
}

export interface RestartContext {
  config: KubeletConfig;
  pod: Pod;
  t0: Instant;
  now: Instant;
  stops: Stops;
}

/**
 * What runs for the container of `fresh` (its spec's plan): the old image while it stops for a new one, then
 * the new image from the stop's end (its behaviour and start time apply from there), counting the restart.
 * `stops` learns when a stop begins.
 */
// upstream: pkg/kubelet/kuberuntime kuberuntime_manager.go computePodActions (container spec hash changed: kill, then start)
export function restartedPlan(fresh: ContainerPlan, status: ContainerStatus | undefined, r: RestartContext): ContainerPlan {
  if (!status?.image || status.image === fresh.image) {
    r.stops.delete(fresh.name);
    return continued(fresh, status, r.t0);
  }
  let stop = r.stops.get(fresh.name);
  if (stop?.image !== fresh.image) r.stops.set(fresh.name, (stop = { image: fresh.image, since: r.now }));
  const finishedAt = stop.since + terminationDelayMs(r.config, r.pod);
  if (r.now < finishedAt) {
    const running: Container = { name: fresh.name, image: status.image };
    return continued(containerPlan(r.config, running, r.pod.metadata.uid ?? r.pod.metadata.name ?? ''), status, r.t0);
  }
  const startedAt = status.state?.running?.startedAt;
  return { ...fresh, startMs: finishedAt - r.t0 + fresh.startMs, restart: { count: status.restartCount + 1, finishedAt, ...(startedAt ? { startedAt } : {}) } };
}

/** When the first container being stopped is gone (the kubelet wakes up then). */
export function nextStopEnd(r: RestartContext): Instant | undefined {
  const ends = [...r.stops.values()].map((s) => s.since + terminationDelayMs(r.config, r.pod)).filter((at) => at > r.now);
  return ends.length > 0 ? Math.min(...ends) : undefined;
}
