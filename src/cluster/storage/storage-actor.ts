// The simulated storage of a cluster: what a CSI driver with the external provisioner and resizer and the
// kubelet's volume expansion do to PersistentVolumeClaims. It binds each new claim to a PersistentVolume
// of the requested size (after `bindSeconds`), and expands a bound claim whose request grew (after its
// class's `expansionSeconds`): online, offline (the file system waits for a pod that mounts the claim to
// start), or failing. Refusing an expansion whose StorageClass does not allow it is the API server's part
// (its resize admission). It speaks only the ClusterClient port, like the simulated kubelet, so it works on
// the in-memory API server and on a real kube-apiserver (where no CSI driver runs). All time is the
// injected Timers'.

import { Resources, type ClusterClient } from '../../api/client.js';
import { isAlreadyExists, isNotFound } from '../../api/errors.js';
import { claimCapacity, claimRequest, fromTimestamp, toTimestamp, type Instant, type KubeObject, type PersistentVolumeClaim, type PersistentVolumeClaimCondition, type Pod, type Quantity } from '../../api/types.js';
import { deepEqual } from '../../api/validation/json.js';
import { compareQuantities, quantityText } from '../../api/validation/quantity.js';
import type { Timers } from '../../runtime/clock.js';
import { WatchingActor } from '../watching-actor.js';
import { drawSeconds, type Seconds } from '../kubelet/config.js';

export const EXPANSION_MODES = ['Online', 'Offline', 'Fails'] as const;
export type ExpansionMode = (typeof EXPANSION_MODES)[number];

export interface StorageClassBehavior {
  expansion?: ExpansionMode;
  expansionSeconds?: number;
}

export interface StorageConfig {
  /** Seconds from a claim's creation to its binding (default 0). */
  bindSeconds: number;
  /**
   * Seconds an expansion takes when its class says nothing (default 10); with samples, each expansion draws
   * one (from the seed, the claim's UID and the size it grows to).
   */
  expansionSeconds: Seconds;
  /** By StorageClass name; a class not listed expands online. */
  classes: Record<string, StorageClassBehavior>;
  /** Seeds the draws from `samples` (default 0). */
  seed?: number;
}

export interface StorageActorOptions {
  client: ClusterClient;
  timers: Timers;
  random: () => number;
  config: StorageConfig;
  /** Only this namespace's claims and pods (default: all), e.g. beside other tests on one API server. */
  namespace?: string;
  onError?: (error: unknown) => void;
}

type ClaimStatus = Record<string, unknown> & { conditions?: PersistentVolumeClaimCondition[] };

const RESIZE_FAILED = 'the storage backend refused to expand the volume (simulated)';
const sameQuantity = (a: string, b: string | undefined): boolean => b !== undefined && compareQuantities(a, b) === 0;
const key = (o: KubeObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

/** Names of the claims a pod mounts. */
const mountedClaims = (pod: Pod): string[] => (pod.spec.volumes ?? []).flatMap((v) => (v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : []));
const isRunning = (pod: Pod): boolean => pod.status?.phase === 'Running' && !pod.metadata.deletionTimestamp;

export class StorageActor extends WatchingActor {
  private readonly claims = new Map<string, PersistentVolumeClaim>();
  private readonly pods = new Map<string, Pod>();
  /** Expansions under way: claim key → the request being expanded to and when it was first seen. */
  private readonly expansions = new Map<string, { target: string; since: Instant }>();

  /** Claims are reconciled one write sequence per claim at a time, again when changed meanwhile or when due. */
  constructor(private readonly opts: StorageActorOptions) {
    super(opts, 'storage', opts.namespace);
    this.watch<PersistentVolumeClaim>(Resources.persistentVolumeClaims, this.claims, key, (c) => this.reconcile(key(c)));
    this.watch<Pod>(Resources.pods, this.pods, key, (p) => this.reconcileMounted(p));
  }

  protected run(k: string): Promise<void> {
    return this.reconcileClaim(k);
  }

  protected resyncAll(): void {
    for (const claim of this.claims.values()) this.reconcile(key(claim));
  }

  /** A pod started: an offline expansion of a claim it mounts may finish. */
  private reconcileMounted(pod: Pod): void {
    for (const claim of mountedClaims(pod)) this.reconcile(`${pod.metadata.namespace ?? ''}/${claim}`);
  }

  private reconcile(k: string): void {
    this.work.enqueue(k);
  }

  private wakeAt(k: string, at: Instant): void {
    this.work.wakeAt(k, at);
  }

  private async reconcileClaim(k: string): Promise<void> {
    const claim = this.claims.get(k);
    if (!this.running || claim === undefined || claim.metadata.deletionTimestamp) {
      this.expansions.delete(k);
      return;
    }
    try {
      if (!claim.spec.volumeName) return await this.bind(k, claim);
      await this.writeStatus(claim, this.desiredStatus(k, claim));
    } catch (error) {
      // a conflict or a failed write: the next event (or a retry a second later) tries again
      this.opts.onError?.(error);
      this.wakeAt(k, this.opts.timers.now() + 1000);
    }
  }

  /** A new PersistentVolume of the requested size, then the claim bound to it (spec.volumeName, status Bound). */
  private async bind(k: string, claim: PersistentVolumeClaim): Promise<void> {
    const due = (fromTimestamp(claim.metadata.creationTimestamp) ?? this.opts.timers.now()) + this.opts.config.bindSeconds * 1000;
    if (this.opts.timers.now() < due) return this.wakeAt(k, due);
    const size = claimRequest(claim) ?? '0';
    const volume = `pvc-${claim.metadata.uid ?? ''}`;
    const pv = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: volume },
      spec: {
        capacity: { storage: size },
        accessModes: claim.spec.accessModes ?? ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Delete',
        storageClassName: claim.spec.storageClassName ?? '',
        claimRef: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name, uid: claim.metadata.uid },
        hostPath: { path: `/simulated/${volume}` },
      },
    };
    await this.opts.client.create(Resources.persistentVolumes, pv as KubeObject).catch((e: unknown) => {
      if (!isAlreadyExists(e)) throw e;
    });
    const bound = await this.opts.client.update(Resources.persistentVolumeClaims, { ...claim, spec: { ...claim.spec, volumeName: volume } });
    await this.writeStatus(bound, { phase: 'Bound', accessModes: claim.spec.accessModes ?? ['ReadWriteOnce'], capacity: { storage: size } });
  }

  /** The status of a bound claim: its capacity, and where an expansion to a larger request stands. */
  private desiredStatus(k: string, claim: PersistentVolumeClaim): ClaimStatus {
    const request = claimRequest(claim);
    // a bound claim whose status write did not happen yet has the volume's size: what was requested
    const capacity = claimCapacity(claim) ?? request;
    const status: ClaimStatus = { accessModes: claim.spec.accessModes ?? ['ReadWriteOnce'], ...(claim.status ?? {}), phase: 'Bound', ...(capacity ? { capacity: { storage: capacity } } : {}) };
    const clean = (): ClaimStatus => {
      this.expansions.delete(k);
      const { conditions: _c, allocatedResourceStatuses: _a, ...rest } = status;
      return rest;
    };
    if (request === undefined || capacity === undefined || compareQuantities(request, capacity) !== 1) return clean();
    const now = this.opts.timers.now();
    let expansion = this.expansions.get(k);
    if (expansion === undefined || compareQuantities(expansion.target, request) !== 0) this.expansions.set(k, (expansion = { target: request, since: now }));
    const behavior = this.opts.config.classes[claim.spec.storageClassName ?? ''] ?? {};
    const { expansionSeconds, seed } = this.opts.config;
    const due = expansion.since + (behavior.expansionSeconds ?? drawSeconds(expansionSeconds, seed ?? 0, `${claim.metadata.uid ?? k}/${request}/expansion`)) * 1000;
    const since = toTimestamp(expansion.since);
    const allocated = { ...status, allocatedResources: { storage: request } };
    if (now < due) {
      this.wakeAt(k, due);
      return { ...allocated, allocatedResourceStatuses: { storage: 'ControllerResizeInProgress' }, conditions: [{ type: 'Resizing', status: 'True', lastTransitionTime: since }] };
    }
    switch (behavior.expansion ?? 'Online') {
      case 'Fails':
        return {
          ...allocated,
          allocatedResourceStatuses: { storage: 'ControllerResizeInfeasible' },
          conditions: [{ type: 'ControllerResizeError', status: 'True', lastTransitionTime: toTimestamp(due), message: RESIZE_FAILED }],
        };
      case 'Offline':
        if (!this.startedSince(claim, due)) {
          const pending = { type: 'FileSystemResizePending', status: 'True', lastTransitionTime: toTimestamp(due), message: 'Waiting for user to (re-)start a pod to finish file system resize of volume on node.' };
          return { ...allocated, allocatedResourceStatuses: { storage: 'NodeResizePending' }, conditions: [pending ] };
        }
        break;
      case 'Online':
        break;
    }
    return { ...clean(), allocatedResources: { storage: request }, capacity: { storage: request } };
  }

  /** Some pod mounting the claim was created at or after `at` and runs (the node expands the file system as it mounts). */
  private startedSince(claim: PersistentVolumeClaim, at: Instant): boolean {
    for (const pod of this.pods.values()) {
      if (pod.metadata.namespace !== claim.metadata.namespace || !isRunning(pod)) continue;
      if (!mountedClaims(pod).includes(claim.metadata.name ?? '')) continue;
      if ((fromTimestamp(pod.metadata.creationTimestamp) ?? -Infinity) >= at) return true;
    }
    return false;
  }

  private async writeStatus(claim: PersistentVolumeClaim, status: ClaimStatus): Promise<void> {
    if (deepEqual(status, claim.status ?? {})) return;
    const written = await this.opts.client.updateStatus(Resources.persistentVolumeClaims, { ...claim, status } as PersistentVolumeClaim);
    const capacity = claimCapacity(written);
    if (capacity !== undefined && !sameQuantity(capacity, claimCapacity(claim)) && claim.spec.volumeName) await this.resizeVolume(claim.spec.volumeName, capacity);
  }

  /** The PersistentVolume follows its claim's capacity (a claim restored without its volume has none to follow). */
  private async resizeVolume(name: string, capacity: string): Promise<void> {
    let pv: KubeObject & { spec: { capacity?: Record<string, Quantity> } };
    try {
      pv = await this.opts.client.get(Resources.persistentVolumes, undefined, name);
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    if (sameQuantity(capacity, quantityText(pv.spec.capacity?.storage))) return;
    await this.opts.client.update(Resources.persistentVolumes, { ...pv, spec: { ...pv.spec, capacity: { ...pv.spec.capacity, storage: capacity } } });
  }
}
