// Each watched set's timeline as the simulator's records (sim/timeline.ts), made from what the informers
// deliver, so that the report's chart draws a live set as it draws a simulated run. A pod first seen (an
// informer's list, or a set seen after its pods) gets its history from its timestamps (created, scheduled,
// running, Ready since); every later change is recorded when it is seen, as the simulator's observer derives
// it from successive versions of the pod (pod-lifecycle.ts). Status writes and Events are recorded too (the
// step row, the counters and the markers). Times are instants (ms); live-chart.ts turns them into seconds.

import { fromTimestamp, type Instant, type KubeEvent, type Pod, type StatefulSet } from '../../api/types.js';
import { controllerRefOf } from '../../api/controller-ref.js';
import { podOrdinal, podRevision, readyCondition, stateSince } from '../../controller/pod-state.js';
import { minReadySecondsOf } from '../../controller/spec.js';
import type { Clock } from '../../runtime/clock.js';
import { lifecycleEvents, podView, waitingOf } from '../../sim/pod-lifecycle.js';
import { eventRecord, podRecord, statusRecord, waitingRecord, type PodEvent, type PodRecord, type TimelineRecord } from '../../sim/timeline.js';
import { isPodNameOf, type ClusterView } from './cluster-view.js';

/** A set's records beyond which its timeline starts again from the pods' timestamps (bounded memory). */
export const MAX_RECORDS = 10_000;

interface SetTimeline {
  set: StatefulSet;
  records: TimelineRecord[];
}

const nsOf = (o: { metadata: { namespace?: string } }): string => o.metadata.namespace ?? 'default';

/** When a pod first seen reached each of its states, from its own timestamps (never after `now`, never decreasing). */
function historyTimes(pod: Pod, now: Instant): Partial<Record<PodEvent, Instant>> {
  const created = fromTimestamp(pod.metadata.creationTimestamp) ?? now;
  const scheduled = fromTimestamp(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')?.lastTransitionTime) ?? created;
  const started = (pod.status?.containerStatuses ?? []).flatMap((c) => fromTimestamp(c.state?.running?.startedAt) ?? []).sort((a, b) => a - b)[0];
  const running = started ?? fromTimestamp(pod.status?.startTime) ?? scheduled;
  const ready = fromTimestamp(readyCondition(pod)?.lastTransitionTime) ?? running;
  return { Created: created, Scheduled: scheduled, Running: running, Ready: ready, Terminating: stateSince(pod) ?? now, Failed: now };
}

export class LiveTimelines {
  private readonly byUid = new Map<string, SetTimeline>();

  constructor(
    private readonly view: ClusterView,
    private readonly clock: Clock,
  ) {}

  /** Registers on the view's informers; call before they start, so that nothing they deliver is missed. */
  start(): void {
    for (const informer of this.view.sets.values()) {
      informer.addHandler({ onAdd: (s) => this.setSeen(s), onUpdate: (o, s) => this.setChanged(o, s), onDelete: (s) => this.byUid.delete(s.metadata.uid ?? '') });
    }
    this.view.pods.addHandler({ onAdd: (p) => this.podAdded(p), onUpdate: (o, p) => this.podChanged(o, p), onDelete: (p) => this.podChanged(p, undefined) });
    this.view.events.addHandler({ onAdd: (e) => this.event(undefined, e), onUpdate: (o, e) => this.event(o, e) });
  }

  /** The set's records in the order seen (instants in `t`); empty for a set not seen. */
  records(set: StatefulSet): readonly TimelineRecord[] {
    return this.byUid.get(set.metadata.uid ?? '')?.records ?? [];
  }

  private setSeen(set: StatefulSet): void {
    const timeline: SetTimeline = { set, records: [] };
    this.byUid.set(set.metadata.uid ?? '', timeline);
    const now = this.clock.now();
    for (const pod of this.view.podsOf(set)) this.podHistory(timeline, pod, now);
    for (const e of this.view.eventsOf(set)) this.event(undefined, e);
    timeline.records.push(statusRecord(now, nsOf(set), set.metadata.name ?? '', set.metadata.generation ?? null, set.status ?? { replicas: 0 }));
  }

  private setChanged(old: StatefulSet, set: StatefulSet): void {
    const timeline = this.byUid.get(set.metadata.uid ?? '');
    if (timeline === undefined) return this.setSeen(set);
    timeline.set = set;
    if (JSON.stringify(old.status) === JSON.stringify(set.status)) return;
    this.push(timeline, statusRecord(this.clock.now(), nsOf(set), set.metadata.name ?? '', set.metadata.generation ?? null, set.status ?? { replicas: 0 }));
  }

  private timelineOf(pod: Pod): SetTimeline | undefined {
    const uid = controllerRefOf(pod)?.uid;
    return uid === undefined ? undefined : this.byUid.get(uid);
  }

  private podAdded(pod: Pod): void {
    const timeline = this.timelineOf(pod);
    if (timeline !== undefined) this.podHistory(timeline, pod, this.clock.now());
  }

  private podChanged(prev: Pod, next: Pod | undefined): void {
    const timeline = this.timelineOf(prev);
    if (timeline === undefined) return;
    const now = this.clock.now();
    for (const e of lifecycleEvents(podView(prev), next && podView(next))) this.push(timeline, this.podRecord(timeline, next ?? prev, e, now));
    const waiting = waitingOf(next);
    if (waiting !== undefined && waiting.reason !== waitingOf(prev)?.reason) this.push(timeline, waitingRecord(now, { ...this.who(timeline, next ?? prev), ...waiting }));
  }

  /** A pod first seen: the states it went through, at the times its timestamps give. */
  private podHistory(timeline: SetTimeline, pod: Pod, now: Instant): void {
    const times = historyTimes(pod, now);
    let last = Number.NEGATIVE_INFINITY;
    for (const e of lifecycleEvents(undefined, podView(pod))) {
      last = Math.min(now, Math.max(last, times[e] ?? now));
      this.push(timeline, this.podRecord(timeline, pod, e, last));
    }
    const waiting = waitingOf(pod);
    if (waiting !== undefined) this.push(timeline, waitingRecord(now, { ...this.who(timeline, pod), ...waiting }));
  }

  private who(timeline: SetTimeline, pod: Pod): Omit<PodRecord, 't' | 'type' | 'event'> {
    const ordinal = podOrdinal(pod);
    return { namespace: nsOf(pod), name: pod.metadata.name ?? '', set: timeline.set.metadata.name ?? null, ordinal: ordinal >= 0 ? ordinal : null, revision: podRevision(pod) || null };
  }

  /** With minReadySeconds, a Ready pod counts as available that much later (the chart's NotAvailable stretch). */
  private podRecord(timeline: SetTimeline, pod: Pod, event: PodEvent, at: Instant): PodRecord {
    const minReady = minReadySecondsOf(timeline.set);
    return podRecord(at, { ...this.who(timeline, pod), event, ...(event === 'Ready' && minReady > 0 ? { availableAt: at + minReady * 1000 } : {}) });
  }

  /** An Event about a watched set or one of its pods, at its last time (once per new occurrence). */
  private event(old: KubeEvent | undefined, e: KubeEvent): void {
    if (old !== undefined && old.count === e.count && old.lastTimestamp === e.lastTimestamp) return;
    const o = e.involvedObject;
    const ns = nsOf(e);
    const owner = [...this.byUid.values()].find((t) => {
      const name = t.set.metadata.name ?? '';
      return nsOf(t.set) === ns && ((o.kind === 'StatefulSet' && o.name === name) || (o.kind === 'Pod' && isPodNameOf(name, o.name ?? '')));
    });
    if (owner === undefined) return;
    const at = fromTimestamp(e.lastTimestamp ?? e.firstTimestamp ?? e.metadata.creationTimestamp) ?? this.clock.now();
    this.push(owner, eventRecord(Math.min(at, this.clock.now()), { namespace: ns, involvedObject: { kind: o.kind ?? '', name: o.name ?? '' }, eventType: e.type ?? 'Normal', reason: e.reason ?? '', message: e.message ?? '' }));
  }

  private push(timeline: SetTimeline, record: TimelineRecord): void {
    timeline.records.push(record);
    if (timeline.records.length > MAX_RECORDS) this.setSeen(timeline.set);
  }
}
