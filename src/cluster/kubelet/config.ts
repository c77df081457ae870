// The simulated kubelet's configuration: the scenario's `cluster` block. Images map to behaviours by
// exact name first, then by the first glob (`*` = any run of characters) in key order; an entry with `pods`
// applies only to pods whose name one of its globs matches (a fault at one ordinal), else it is passed over.

import type { Container, Instant, Pod } from '../../api/types.js';
import type { Allocatable } from './resize.js';

export type ImageBehaviorName = 'ImagePullBackOff' | 'CrashLoopBackOff' | 'NotReadyAfter';

export interface ImageBehavior {
  behavior?: ImageBehaviorName;
  /** Start time for this image (a number, or samples each pod draws one of), overriding podStartSeconds. */
  startSeconds?: Seconds;
  /** NotReadyAfter: seconds of readiness before the container turns NotReady. */
  seconds?: number;
  /** Only pods whose name matches one of these globs (`web-3`, `web-*`); absent: every pod. */
  pods?: string[];
}

/**
 * Seconds: a fixed number, or `samples` of which each pod draws one (a forecast's learned durations). The
 * draw is a hash of the run's seed and the pod's UID, so it is the same however often a pod is looked at,
 * and the same run gives the same draws.
 */
export type Seconds = number | { samples: readonly number[] };

export interface KubeletConfig {
  /** Pod bound → Running and Ready (default 1). */
  podStartSeconds?: Seconds;
  /** Deletion requested → pod removed (default 1), capped by the pod's grace period. */
  podTerminationSeconds?: Seconds;
  images?: Record<string, ImageBehavior>;
  /** Seeds the draws from `samples` (default 0). */
  seed?: number;
  /** The node's allocatable cpu and memory: what in-place resizes are admitted against (absent: no limit). */
  allocatable?: Allocatable;
}

/** How one container of a pod will behave, in integer milliseconds. */
export interface ContainerPlan {
  name: string;
  image: string;
  startMs: number;
  behavior: 'Normal' | ImageBehaviorName;
  /** NotReadyAfter only. */
  readyForMs?: number;
  /** The container was restarted in place for a new image (`startMs` counts from then). */
  restart?: ContainerRestart;
}

/** An in-place restart: the container's restartCount after it, and the old container's start and end. */
export interface ContainerRestart {
  count: number;
  startedAt?: string;
  finishedAt: Instant;
}

const DEFAULT_START_SECONDS = 1;
const DEFAULT_TERMINATION_SECONDS = 1;
const DEFAULT_GRACE_SECONDS = 30;

const toMs = (seconds: number): number => Math.max(0, Math.round(seconds * 1000));

/** FNV-1a over the string, then murmur3's finaliser so that the low bits (used modulo) are well mixed too. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The longest of the seconds (the number itself, or the largest sample). */
export const longestSeconds = (value: Seconds): number => (typeof value === 'number' ? value : Math.max(...value.samples));

/** The seconds for `key` (a pod's UID and what is drawn): the number, or one of the samples. */
export function drawSeconds(value: Seconds, seed: number, key: string): number {
  if (typeof value === 'number') return value;
  return value.samples[hash32(`${seed}/${key}`) % value.samples.length] ?? 0;
}

/** `pattern` (`*`: any run of characters) matches all of `image`. */
export function globMatches(pattern: string, image: string): boolean {
  const escaped = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`).test(image);
}

const appliesTo = (b: ImageBehavior, podName: string): boolean => b.pods === undefined || b.pods.some((p) => globMatches(p, podName));

/** The behaviour of `image` in the pod `podName` (see the header). */
export function imageBehavior(config: KubeletConfig, image: string, podName = ''): ImageBehavior {
  const images = config.images ?? {};
  const exact = Object.prototype.hasOwnProperty.call(images, image) ? images[image] : undefined;
  if (exact !== undefined && appliesTo(exact, podName)) return exact;
  for (const [pattern, behavior] of Object.entries(images)) {
    if (pattern.includes('*') && globMatches(pattern, image) && appliesTo(behavior, podName)) return behavior;
  }
  return {};
}

/** A container's plan; `podKey` (the pod's UID) picks its start time when the start time has samples. */
export function containerPlan(config: KubeletConfig, container: Container, podKey = '', podName = ''): ContainerPlan {
  const image = container.image ?? '';
  const b = imageBehavior(config, image, podName);
  const start = drawSeconds(b.startSeconds ?? config.podStartSeconds ?? DEFAULT_START_SECONDS, config.seed ?? 0, `${podKey}/start`);
  const plan: ContainerPlan = {
    name: container.name,
    image,
    startMs: toMs(start),
    behavior: b.behavior ?? 'Normal',
  };
  if (b.behavior === 'NotReadyAfter') plan.readyForMs = toMs(b.seconds ?? 0);
  return plan;
}

export function podPlans(config: KubeletConfig, pod: Pod): ContainerPlan[] {
  return (pod.spec?.containers ?? []).map((c) => containerPlan(config, c, pod.metadata.uid ?? pod.metadata.name ?? '', pod.metadata.name ?? ''));
}

/** How long after seeing the deletion the kubelet removes the pod: the configured time, capped by the grace period. */
export function terminationDelayMs(config: KubeletConfig, pod: Pod): number {
  const grace = pod.metadata.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS;
  const key = `${pod.metadata.uid ?? pod.metadata.name ?? ''}/termination`;
  return toMs(Math.min(drawSeconds(config.podTerminationSeconds ?? DEFAULT_TERMINATION_SECONDS, config.seed ?? 0, key), Math.max(0, grace)));
}
