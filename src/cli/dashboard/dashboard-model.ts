// What the page shows, computed from the cluster view at one instant: the list of sets, and for the selected
// set its rollout state, step, ETA, live timeline, `why`, `plan` and Events. `why` and `plan` run the
// controller's pure planner on what the informers hold (runtime/observe.ts, as `why` and `plan` do after
// their one list), so the dashboard explains exactly what a sync would decide.

import type { Features } from '../../api/features.js';
import type { Instant, StatefulSet } from '../../api/types.js';
import { planStatefulSet } from '../../controller/plan-statefulset.js';
import { observedPods } from '../../controller/replica-index.js';
import { currentStepLine } from '../../report/current-step.js';
import type { Clock } from '../../runtime/clock.js';
import { observe } from '../../runtime/observe.js';
import { lastFailedWrite } from '../explain/failed-write.js';
import { explainContext, explainWhy } from '../explain/why-report.js';
import { EtaWatch } from '../rollout/eta-watch.js';
import { rolloutState } from '../rollout/status-message.js';
import { controllerRefOf } from '../../api/controller-ref.js';
import { escapeHtml } from '../../report/escape.js';
import { qualifiedName } from '../explain/set-ref.js';
import type { ClusterView, ViewedSet } from './cluster-view.js';
import { liveChart } from './live-chart.js';
import { LiveTimelines } from './live-timeline.js';
import { countsText, setListHtml, stateBadge } from './set-list.js';
import { etaLine, eventsHtml, planHtml, whyHtml } from './set-panels.js';

/** One set's panels (HTML fragments, escaped) and what the page's forms need. */
export interface SetDetail {
  key: string;
  /** `statefulset.apps.ordinal.dev/web`: what the actions and the forecast name. */
  set: string;
  namespace: string;
  title: string;
  state: string;
  message: string;
  counts: string;
  step: string;
  eta: string;
  /** The instant the timeline's 0 stands for (ISO 8601). */
  origin: string;
  legend: string;
  timeline: string;
  counters: string;
  why: string;
  plan: string;
  events: string;
  containers: string[];
}

export interface ViewSnapshot {
  now: string;
  problems: string[];
  sets: string;
  /** The selected set; `{ key, gone: true }` when it is not (or no longer) watched. */
  detail?: SetDetail | { key: string; gone: true };
}

export class DashboardModel {
  readonly timelines: LiveTimelines;
  private readonly etas = new Map<string, EtaWatch>();

  /** `changed`: something the page shows changed outside the informers (a forecast for an ETA arrived). */
  constructor(
    private readonly view: ClusterView,
    private readonly clock: Clock,
    private readonly features: Features,
    private readonly changed: () => void,
  ) {
    this.timelines = new LiveTimelines(view, clock);
  }

  /** Registers on the view's informers (before they start). */
  start(): void {
    this.timelines.start();
    this.view.pods.addHandler({ onDelete: (pod) => this.etas.get(controllerRefOf(pod)?.uid ?? '')?.sawGone(pod, this.clock.now()) });
    for (const informer of this.view.sets.values()) informer.addHandler({ onDelete: (set) => this.etas.delete(set.metadata.uid ?? '') });
  }

  snapshot(selected: string | undefined): ViewSnapshot {
    const now = this.clock.now();
    const sets = this.view.list();
    const pods = new Map(sets.map((v) => [v, this.view.podsOf(v.set)]));
    const list = setListHtml(sets, (v) => pods.get(v) ?? [], now, selected);
    const found = selected === undefined ? undefined : sets.find((v) => v.key === selected);
    const detail = selected === undefined ? undefined : found === undefined ? { key: selected, gone: true as const } : this.detail(found, now);
    return { now: new Date(now).toISOString(), problems: this.view.problems(), sets: list, ...(detail ? { detail } : {}) };
  }

  /** The set's ETA forecast, by UID (its pods name it in their controller reference). */
  private eta(v: ViewedSet): EtaWatch {
    const uid = v.set.metadata.uid ?? '';
    let eta = this.etas.get(uid);
    if (eta === undefined) {
      eta = new EtaWatch(this.view.client, v.resource, this.changed);
      this.etas.set(uid, eta);
    }
    return eta;
  }

  private detail(v: ViewedSet, now: Instant): SetDetail {
    const pods = this.view.podsOf(v.set);
    const state = rolloutState(v.set, pods, now);
    const name = qualifiedName(v.resource, v.set.metadata.name ?? '');
    const explained = this.explain(v.set, name, now);
    const chart = liveChart(this.timelines.records(v.set), now, explained.maxUnavailable);
    // the selected set's rollout is forecast as `rollout status` forecasts it (once per update revision)
    const forecast = this.eta(v);
    forecast.update(v.set, pods, state.kind === 'progressing');
    const eta = state.kind === 'progressing' ? etaLine(forecast.forecast, pods, v.set.status?.updatedReplicas ?? 0) : undefined;
    return {
      key: v.key,
      set: name,
      namespace: v.set.metadata.namespace ?? 'default',
      title: `${name} in ${v.set.metadata.namespace ?? 'default'}`,
      state: stateBadge(state),
      message: state.message,
      counts: countsText(v.set),
      step: currentStepLine(v.set, now) ?? '',
      eta: eta ?? '',
      origin: new Date(chart.origin).toISOString(),
      legend: chart.legend,
      timeline: chart.timeline,
      counters: chart.counters,
      why: explained.why,
      plan: explained.plan,
      events: eventsHtml(this.view.eventsOf(v.set), now),
      containers: (v.set.spec.template?.spec?.containers ?? []).map((c) => c.name),
    };
  }

  /** `why` and `plan` from the planner on the informers' objects, or why they cannot be made yet. */
  private explain(stored: StatefulSet, name: string, now: Instant): { why: string; plan: string; maxUnavailable?: number } {
    const caches = this.view.caches(stored);
    if (typeof caches === 'string') return { why: `<p class="muted">${escapeHtml(caches)}</p>`, plan: '' };
    const observed = observe(stored, caches, this.features);
    const plan = planStatefulSet(observed, now, this.features);
    const input = { set: observed.set, pods: observedPods(observed), plan, now, features: this.features, lastFailure: lastFailedWrite(this.view.eventsOf(stored), stored, now) };
    const ctx = explainContext(input);
    const budget = ctx.strategy.kind === 'RollingUpdate' || ctx.strategy.kind === 'EnforcedRollingUpdate' ? { maxUnavailable: ctx.strategy.maxUnavailable } : {};
    return { why: whyHtml(explainWhy(input)), plan: planHtml({ title: name, now, plan, ctx }), ...budget };
  }
}
