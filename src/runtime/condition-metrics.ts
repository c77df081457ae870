// `statefulset_status_condition`: each set's conditions as the controller last planned them, one series per
// condition type with value 1, labelled with its status and reason (kube-state-metrics' *_status_condition,
// plus the reason: Ordinal's reasons — ProgressDeadlineExceeded, SafetyHalt, RolloutAborted,
// SlowerThanForecast — are what an alert needs to tell a stuck rollout from a paused or aborted one).
// A condition that changes status or reason replaces its series; one that goes away removes it.

import { Gauge, type Registry } from 'prom-client';
import type { Condition } from '../api/types.js';

const LABELS = ['statefulset_namespace', 'statefulset_name', 'pod_management_policy', 'condition', 'status', 'reason'] as const;
type Labels = Record<(typeof LABELS)[number], string>;

export class ConditionMetrics {
  private readonly gauge: Gauge<(typeof LABELS)[number]>;
  /** The series each set has now, by `namespace/name`, then by condition type. */
  private readonly current = new Map<string, Map<string, Labels>>();

  constructor(registry: Registry) {
    this.gauge = new Gauge({
      name: 'statefulset_status_condition',
      help: "The StatefulSet's conditions as the controller last planned them: 1 per condition type, with its status and reason",
      labelNames: LABELS,
      registers: [registry],
    });
  }

  record(set: { statefulset_namespace: string; statefulset_name: string; pod_management_policy: string }, conditions: readonly Condition[]): void {
    const key = `${set.statefulset_namespace}/${set.statefulset_name}`;
    const before = this.current.get(key) ?? new Map<string, Labels>();
    const now = new Map<string, Labels>();
    for (const c of conditions) now.set(c.type, { ...set, condition: c.type, status: c.status, reason: c.reason ?? '' });
    for (const [type, labels] of before) if (!sameLabels(labels, now.get(type))) this.gauge.remove(labels);
    // a series already at 1 stays there: a sync that plans the same conditions sets nothing
    for (const [type, labels] of now) if (!sameLabels(labels, before.get(type))) this.gauge.set(labels, 1);
    if (now.size === 0) this.current.delete(key);
    else this.current.set(key, now);
  }

  forget(namespace: string, name: string): void {
    const key = `${namespace}/${name}`;
    for (const labels of this.current.get(key)?.values() ?? []) this.gauge.remove(labels);
    this.current.delete(key);
  }
}

const sameLabels = (a: Labels, b: Labels | undefined): boolean => b !== undefined && LABELS.every((l) => a[l] === b[l]);
