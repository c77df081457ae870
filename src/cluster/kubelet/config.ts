// The simulated kubelet's configuration: scenario.md's `cluster` block. Images map to behaviours by
// exact name first, then by the first glob (`*` = any run of characters) in key order.

import type { Container, Pod } from '../../api/types.js';

export type ImageBehaviorName = 'ImagePullBackOff' | 'CrashLoopBackOff' | 'NotReadyAfter';

export interface ImageBehavior {
  behavior?: ImageBehaviorName;
  /** Start time for this image, overriding podStartSeconds. */
  startSeconds?: number;
  /** NotReadyAfter: seconds of readiness before the container turns NotReady. */
  seconds?: number;
}

export interface KubeletConfig {
  /** Pod bound → Running and Ready (default 1). */
  podStartSeconds?: number;
  /** Deletion requested → pod removed (default 1), capped by the pod's grace period. */
  podTerminationSeconds?: number;
  images?: Record<string, ImageBehavior>;
}

/** How one container of a pod will behave, in integer milliseconds (style.md T9). */
export interface ContainerPlan {
  name: string;
  image: string;
  startMs: number;
  behavior: 'Normal' | ImageBehaviorName;
  /** NotReadyAfter only. */
  readyForMs?: number;
}

const DEFAULT_START_SECONDS = 1;
const DEFAULT_TERMINATION_SECONDS = 1;
const DEFAULT_GRACE_SECONDS = 30;

const toMs = (seconds: number): number => Math.max(0, Math.round(seconds * 1000));

function globMatches(pattern: string, image: string): boolean {
  const escaped = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`).test(image);
}

export function imageBehavior(config: KubeletConfig, image: string): ImageBehavior {
  const images = config.images ?? {};
  if (Object.prototype.hasOwnProperty.call(images, image)) return images[image]!;
  for (const [pattern, behavior] of Object.entries(images)) {
    if (pattern.includes('*') && globMatches(pattern, image)) return behavior;
  }
  return {};
}

export function containerPlan(config: KubeletConfig, container: Container): ContainerPlan {
  const image = container.image ?? '';
  const b = imageBehavior(config, image);
  const plan: ContainerPlan = {
    name: container.name,
    image,
    startMs: toMs(b.startSeconds ?? config.podStartSeconds ?? DEFAULT_START_SECONDS),
    behavior: b.behavior ?? 'Normal',
  };
  if (b.behavior === 'NotReadyAfter') plan.readyForMs = toMs(b.seconds ?? 0);
  return plan;
}

export function podPlans(config: KubeletConfig, pod: Pod): ContainerPlan[] {
  return (pod.spec?.containers ?? []).map((c) => containerPlan(config, c));
}

/** How long after seeing the deletion the kubelet removes the pod: the configured time, capped by the grace period. */
export function terminationDelayMs(config: KubeletConfig, pod: Pod): number {
  const grace = pod.metadata.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS;
  return toMs(Math.min(config.podTerminationSeconds ?? DEFAULT_TERMINATION_SECONDS, Math.max(0, grace)));
}
