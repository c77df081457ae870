// spec.lifecycle.preUpdate read the way the planner needs it, with its defaults (validated before: the
// planner plans no invalid spec). Only an apps.ordinal.dev/v1 set has one (apps/v1 forbids the field).

import { LIFECYCLE_STATE_LABEL, ORDINAL_V1, PREPARING_UPDATE, type HookFailurePolicy, type StatefulSet } from '../../api/types.js';

/** How long a hook may take before its failurePolicy applies, unless set. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 300;
/** Per request, unless http.timeoutSeconds says otherwise. */
export const DEFAULT_HOOK_REQUEST_SECONDS = 5;
/** Between two GETs of a hook that has not answered the expected status yet. */
export const HOOK_RETRY_MS = 5000;

export type HookHandler = { kind: 'http'; url: string; expectedStatus: number; requestTimeoutMs: number } | { kind: 'labels'; labels: Readonly<Record<string, string>> };

export interface PreUpdateHookSpec {
  handler: HookHandler;
  timeoutMs: number;
  failurePolicy: HookFailurePolicy;
}

/** The set's preUpdate hook, or undefined when it has none. */
export function preUpdateHookOf(set: StatefulSet): PreUpdateHookSpec | undefined {
  const hook = set.spec.lifecycle?.preUpdate;
  if (hook === undefined || set.apiVersion !== ORDINAL_V1) return undefined;
  const http = hook.http;
  const handler: HookHandler | undefined =
    http !== undefined
      ? { kind: 'http', url: http.url, expectedStatus: http.expectedStatus ?? 200, requestTimeoutMs: (http.timeoutSeconds ?? DEFAULT_HOOK_REQUEST_SECONDS) * 1000 }
      : hook.labelsHandler !== undefined
        ? { kind: 'labels', labels: hook.labelsHandler }
        : undefined;
  if (handler === undefined) return undefined;
  return { handler, timeoutMs: (hook.timeoutSeconds ?? DEFAULT_HOOK_TIMEOUT_SECONDS) * 1000, failurePolicy: hook.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail' };
}

/** The URL the controller GETs for one pod and revision: the hook's, with `pod` and `revision` in its query. */
export function hookUrl(url: string, pod: string, revision: string): string {
  const u = new URL(url);
  u.searchParams.set('pod', pod);
  u.searchParams.set('revision', revision);
  return u.toString();
}

/** What the hook waits for, in words: the GET, or the labels the pod must carry. */
export function hookTarget(handler: HookHandler, pod: string, revision: string): string {
  if (handler.kind === 'http') return `GET ${hookUrl(handler.url, pod, revision)}`;
  return Object.entries(handler.labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

/** The label a labels handler puts on the pod while it waits. */
export const PREPARING_LABEL: Readonly<Record<string, string>> = { [LIFECYCLE_STATE_LABEL]: PREPARING_UPDATE };
