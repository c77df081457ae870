// spec.lifecycle.preUpdate, the last rule of the admission (admission.ts): a disruption for an update — an
// update deletion, an in-place patch, an in-place fallback or move on, a claim restart — of a pod whose hook
// has not passed (or been ignored by failurePolicy) for the update revision is refused, and the hook is
// driven one step further instead. The state lives in the pod's annotation (replica/hook-state.ts), so each
// step is a write the runtime makes, and the next sync reads it back:
// - no record for the revision: the record Calling (and, for a labels handler, the pod labelled
//   lifecycle-state=PreparingUpdate); event PreUpdateHookCalled once it is written;
// - Calling, http: a GET of the hook URL (a probe, made by the runtime's analysis prober) every HOOK_RETRY_MS
//   until one after `since` answers the expected status: then Passed; labels: Passed once the pod carries
//   every label of the handler;
// - Calling past timeoutSeconds: Ignored (failurePolicy Ignore) or Failed (Fail: the pod stays held, and the
//   rollout stalls into its progress deadline); event PreUpdateHookFailed;
// - Passed or Ignored: the disruption is admitted (the sync after the record is written: a pod never goes on a
//   result the API does not hold yet).

import { PodAnnotations, type Instant } from '../../api/types.js';
import { hookTarget, hookUrl, HOOK_RETRY_MS, PREPARING_LABEL, type PreUpdateHookSpec } from '../model/lifecycle.js';
import type { Action, AnalysisProbe, AnalysisResult, Blocker, PlannedEvent } from '../model/plan-types.js';
import { formatHookRecord, hookLetsGo, type HookRecord } from '../replica/hook-state.js';
import type { PodFacts } from '../replica/pod-facts.js';

export const HookReason = { called: 'PreUpdateHookCalled', failed: 'PreUpdateHookFailed' } as const;

/** The hook's work of one sync: the records to write, the GETs due, what waits, and when to look again. */
export interface HookWork {
  actions: Action[];
  probes: AnalysisProbe[];
  blockers: Blocker[];
  wakeAt?: Instant;
}

/** The probe key of a pod's hook for a revision (the results that count for it). */
export const hookProbeKey = (pod: string, revision: string): string => `preUpdate/${pod}/${revision}`;

export class PreUpdateHooks {
  private readonly work: HookWork = { actions: [], probes: [], blockers: [] };
  /** Pods already driven this sync (a pod is offered once per phase, and more than one phase may offer it). */
  private readonly seen = new Set<string>();

  constructor(
    private readonly hook: PreUpdateHookSpec,
    private readonly setName: string,
    private readonly revision: string,
    private readonly now: Instant,
    private readonly results: readonly AnalysisResult[],
  ) {}

  /** Whether the pod may go for the update now; when not, its hook is driven one step further. */
  letsGo(r: PodFacts): boolean {
    if (hookLetsGo(r.preUpdateHook, this.revision)) return true;
    if (this.seen.has(r.name)) return false;
    this.seen.add(r.name);
    const record = r.preUpdateHook?.revision === this.revision ? r.preUpdateHook : undefined;
    if (record === undefined) this.call(r);
    else if (record.phase === 'Failed') this.wait(r, 'failed', record);
    else this.drive(r, record);
    return false;
  }

  /** What the hooks need written, checked and waited for this sync. */
  result(): HookWork {
    return this.work;
  }

  private target(r: PodFacts): string {
    return hookTarget(this.hook.handler, r.name, this.revision);
  }

  /** First call for the revision: the record Calling (and the PreparingUpdate label), then PreUpdateHookCalled. */
  private call(r: PodFacts): void {
    const since = Math.floor(this.now / 1000) * 1000;
    // a labels handler's own labels are cleared with the call: a pod patched in place keeps its labels, and the
    // agent's answer for an earlier revision must not pass this one
    const handler = this.hook.handler;
    const labels = handler.kind === 'labels' ? { labels: { ...Object.fromEntries(Object.keys(handler.labels).map((k) => [k, null])), ...PREPARING_LABEL } } : {};
    const message = `preUpdate hook of Pod ${r.name} for revision ${this.revision} in StatefulSet ${this.setName}: ${this.hook.handler.kind === 'http' ? this.target(r) : `labelled PreparingUpdate, waiting for ${this.target(r)}`}`;
    this.write(r, { revision: this.revision, phase: 'Calling', since }, { type: 'Normal', reason: HookReason.called, message }, labels);
    this.wait(r, 'calling', { revision: this.revision, phase: 'Calling', since });
  }

  /** A hook in flight: passed, timed out, or a GET due (or not yet). */
  private drive(r: PodFacts, record: HookRecord): void {
    const handler = this.hook.handler;
    const key = hookProbeKey(r.name, this.revision);
    const answers = handler.kind === 'http' ? this.results.filter((a) => a.key === key && a.at >= record.since) : [];
    const last = answers.at(-1);
    const passed = handler.kind === 'http' ? answers.some((a) => a.ok) : Object.entries(handler.labels).every(([k, v]) => r.pod.metadata.labels?.[k] === v);
    if (passed) return this.finish(r, record, 'Passed');
    const deadline = record.since + this.hook.timeoutMs;
    if (this.now >= deadline) return this.finish(r, { ...record, ...(last !== undefined ? { message: last.message } : {}) }, this.hook.failurePolicy === 'Ignore' ? 'Ignored' : 'Failed');
    this.wake(deadline);
    if (handler.kind === 'http') {
      const due = last === undefined ? this.now : last.at + HOOK_RETRY_MS;
      if (due <= this.now) this.work.probes.push({ kind: 'http', key, revision: this.revision, pod: r.name, url: hookUrl(handler.url, r.name, this.revision), expectedStatus: handler.expectedStatus, timeoutMs: handler.requestTimeoutMs });
      else this.wake(due);
    }
    this.wait(r, 'calling', { ...record, ...(last !== undefined ? { message: last.message } : {}) });
  }

  /** The hook's outcome recorded; Ignored and Failed with PreUpdateHookFailed. The pod still waits this sync. */
  private finish(r: PodFacts, record: HookRecord, phase: 'Passed' | 'Ignored' | 'Failed'): void {
    // the PreparingUpdate label goes with the hook: the agent sees the update go on
    const labels = this.hook.handler.kind === 'labels' && phase !== 'Failed' ? { labels: { [Object.keys(PREPARING_LABEL)[0] as string]: null } } : {};
    const seconds = Math.round((this.now - record.since) / 1000);
    const answer = record.message !== undefined ? ` (last: ${record.message})` : '';
    const what = phase === 'Ignored' ? 'ignored (failurePolicy Ignore): the pod goes on' : 'the pod is held (failurePolicy Fail)';
    const event: PlannedEvent | undefined =
      phase === 'Passed' ? undefined : { type: 'Warning', reason: HookReason.failed, message: `preUpdate hook of Pod ${r.name} for revision ${this.revision} in StatefulSet ${this.setName} did not pass within ${seconds}s${answer}: ${what}` };
    this.write(r, { ...record, phase, seconds }, event, labels);
    if (phase === 'Failed') this.wait(r, 'failed', record);
  }

  private write(r: PodFacts, record: HookRecord, event: PlannedEvent | undefined, extra: { labels?: Record<string, string | null> }): void {
    const uid = r.pod.metadata.uid ?? '';
    this.work.actions.push({
      kind: 'annotatePod',
      batch: 0,
      name: r.name,
      uid,
      ordinal: r.ordinal,
      annotations: { [PodAnnotations.preUpdateHook]: formatHookRecord(record) },
      hook: { phase: record.phase, seconds: Math.max(0, Math.round((this.now - record.since) / 1000)) },
      ...extra,
      ...(event !== undefined ? { outcome: { succeeded: event } } : {}),
    });
  }

  private wait(r: PodFacts, state: 'calling' | 'failed', record: HookRecord): void {
    this.work.blockers.push({
      kind: 'preUpdateHook',
      pod: r.name,
      ordinal: r.ordinal,
      revision: this.revision,
      state,
      handler: this.hook.handler.kind === 'http' ? 'http' : 'labels',
      target: this.target(r),
      since: record.since,
      ...(record.message !== undefined ? { answer: record.message } : {}),
      timeoutSeconds: this.hook.timeoutMs / 1000,
    });
  }

  private wake(at: Instant): void {
    if (this.work.wakeAt === undefined || at < this.work.wakeAt) this.work.wakeAt = at;
  }
}
