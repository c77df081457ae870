// The in-memory API server's public shapes: options, fault injection, write records and the extra
// methods a simulator or a test needs beyond the `ClusterClient` port.

import type { ClusterClient, Resource } from '../../api/client.js';
import type { Features } from '../../api/features.js';
import type { Instant, KubeObject } from '../../api/types.js';
import type { Timers } from '../../runtime/clock.js';
import type { WorkCounters } from '../../runtime/work-counters.js';

export interface MemoryClusterOptions {
  timers: Timers;
  features: Features;
  /** Seeded randomness for faults and generateName suffixes; default: a fixed-seed PRNG. */
  random?: () => number;
  /** Watch events kept per resource; a watch from an older resourceVersion gets 410 Gone (default 1000). */
  watchHistory?: number;
  /** Delay before the garbage collector acts on a removed owner (default 100 ms, like a real GC's lag). */
  gcDelayMs?: number;
  /**
   * Most objects of one resource (pods, events, ...) the server stores (default DEFAULT_MAX_OBJECTS): a
   * create beyond it gets 403 Forbidden `exceeded quota`, as from a ResourceQuota on `count/<resource>`,
   * so a runaway spec (replicas: 2147483647) ends in failed creates instead of unbounded memory.
   */
  maxObjects?: number;
  /** Counts requests, writes, copies, watch deliveries and the garbage collector's work (the cost guard). */
  counters?: WorkCounters;
}

/** Request verbs as fault selectors. `update` also covers `updateStatus` (both are PUTs). */
export type FaultVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'updateStatus' | 'patch' | 'delete';

/** A scenario's `faults`; applies to one actor's client only. All chances are drawn from the seeded `random`. */
export interface FaultConfig {
  /** 500 InternalError on that fraction of requests of these verbs (default: every write); the write does not happen. */
  apiErrors?: { rate: number; verbs?: FaultVerb[] };
  /** 409 Conflict on that fraction of update/updateStatus requests, as if another writer got there first. */
  conflicts?: { rate: number };
  watch?: {
    /** Events reach the watcher this late (default 0). */
    delaySeconds?: number;
    /** Each stream ends (onClose without error) this long after it started. */
    breakEverySeconds?: number;
    /** A watch resumed from a specific resourceVersion gets 410 Gone with this chance. */
    goneRate?: number;
    /** Ordinal extension for reliability tests: each event is lost with this chance (the stream stays open). */
    dropRate?: number;
  };
}

/** `apply`: server-side apply (a PATCH on kube-apiserver). */
export type WriteVerb = 'create' | 'update' | 'updateStatus' | 'patch' | 'apply' | 'delete';

/** What a successful write did to the stored object. */
export type WriteChange = 'ADDED' | 'MODIFIED' | 'DELETED' | 'NONE';

/** One successful write, for the simulator's timeline and `action` records. Failed writes are not reported. */
export interface WriteRecord {
  /** The client identity that sent it; server-side actors are `garbage-collector` and `apiserver`. */
  actor: string;
  verb: WriteVerb;
  resource: Resource;
  namespace: string | undefined;
  name: string;
  /** The object after the write; for DELETED its last state with the deletion's resourceVersion. */
  object: KubeObject;
  change: WriteChange;
  at: Instant;
}

export type WriteListener = (record: WriteRecord) => void;

/** autoscaling/v1 Scale, as the `/scale` subresource returns it. */
export interface Scale extends KubeObject {
  spec: { replicas?: number };
  status?: { replicas: number; selector?: string };
}

export interface MemorySnapshot {
  resourceVersion: string;
  /** Keyed by `plural` or `plural.group` (e.g. `statefulsets.apps`); objects sorted by namespace/name. */
  resources: Record<string, KubeObject[]>;
}

export interface ScaleClient {
  getScale(res: Resource, namespace: string, name: string): Promise<Scale>;
  /** Sets `spec.replicas`; a non-empty `metadata.resourceVersion` is a precondition. */
  updateScale(res: Resource, namespace: string, name: string, scale: Scale): Promise<Scale>;
}

export interface MemoryClusterClient extends ClusterClient, ScaleClient {
  readonly identity: string;
}

export interface MemoryCluster extends MemoryClusterClient {
  /** A view for one actor: its writes are attributed to `identity` and `faults` apply to it alone. */
  client(identity: string, faults?: FaultConfig): MemoryClusterClient;
  /** Called after every successful write, in resourceVersion order; returns an unsubscribe function. */
  onWrite(listener: WriteListener): () => void;
  /** Deep copy of everything stored, in a stable order. */
  snapshot(): MemorySnapshot;
  /**
   * Stores a snapshot's objects as they are (uids, timestamps and status kept; new resourceVersions), without
   * admission, reported to write listeners as creates by `actor`. Before any watch starts, a cluster then
   * begins where the snapshot was taken. Throws for an unknown resource or an object that exists.
   */
  restore(snapshot: MemorySnapshot, actor?: string): void;
  /** Registers a Node object (cluster-scoped) as a kubelet would: by name, or as given (labels and all); an existing one is kept. */
  addNode(node: string | KubeObject): Promise<void>;
  /** Forced 410: forgets all watch history, so any resume from an older resourceVersion gets Gone. */
  compact(): void;
  /** Ends every open watch stream (all actors, or one), with `error` passed to onClose. */
  closeWatches(opts?: { identity?: string; error?: Error }): void;
}
