// The planner's input: what the controller observed of one set, as its informers show it.

import type { ControllerRevision, PersistentVolumeClaim, Pod, StatefulSet, StorageClass } from '../../api/types.js';
import type { ObservedDurations } from '../model/learned-durations.js';
import type { AnalysisResult, ObservedDisruptionBudget } from '../model/plan-types.js';
import type { ReplicaIndex } from './replica-index.js';

export interface ObservedState {
  /** The set as stored (already defaulted by the API server). */
  set: StatefulSet;
  /**
   * Pods in the set's namespace that the set controls (controller ownerRef with the set's UID) or that
   * have no controller at all (adoption candidates). Pods controlled by anything else are left out.
   */
  pods: Pod[];
  /** PVCs in the set's namespace whose names the set's claim templates could produce. */
  claims: PersistentVolumeClaim[];
  /** ControllerRevisions the set controls, plus orphans matching its selector (adoption candidates). */
  revisions: ControllerRevision[];
  /**
   * The set's own pods and claims as the controller keeps them, current from its informers' deltas. When given,
   * `pods` lists only the pods without a controller (the adoption candidates) and `claims` is left empty.
   */
  replicas?: ReplicaIndex;
  /**
   * InPlace sets: the cluster's StorageClasses, so a claim whose class cannot expand is reported instead of
   * patched (absent: not observed, and the API server's resize admission decides).
   */
  storageClasses?: StorageClass[];
  /**
   * What the set's recent pods took (creation → Ready, deletion → gone), as the runtime learned them from its
   * informer: the band SlowerThanForecast and `progressDeadlineSeconds: auto` come from (absent: none learned).
   */
  durations?: ObservedDurations;
  /**
   * rollingUpdate.respectPodDisruptionBudgets: the PodDisruptionBudgets of the set's namespace that select one of
   * its pods, each with every pod of the namespace it selects (absent: not observed, and no budget limits).
   */
  disruptionBudgets?: ObservedDisruptionBudget[];
  /**
   * rollingUpdate.topologyKey: the labels of the nodes the set's pods run on, by node name (absent: not observed,
   * and every pod's zone is unknown).
   */
  nodeLabels?: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /** rollingUpdate.steps and .analysis: the analysis checks the runtime made for the set (absent: none). */
  analysisResults?: readonly AnalysisResult[];
}
