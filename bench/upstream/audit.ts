// kube-apiserver's audit log (JSON lines, audit.k8s.io/v1 Event) summarised per controller: the requests one
// client made in a set of namespaces, by verb and resource, with the status writes told apart by whether
// they changed anything (scripts/control-plane/up.sh --audit logs statefulsets/status with its bodies).

export interface AuditEvent {
  auditID: string;
  stage: string;
  /** RFC 3339 with microseconds. */
  requestReceivedTimestamp?: string;
  verb: string;
  userAgent?: string;
  objectRef?: { resource?: string; subresource?: string; namespace?: string; name?: string; apiGroup?: string };
  responseStatus?: { code?: number };
  requestObject?: { metadata?: { resourceVersion?: string }; status?: unknown };
  responseObject?: { metadata?: { resourceVersion?: string }; status?: unknown };
}

export interface RequestSummary {
  /** Every request, reads (get, list, watch) included. */
  requests: number;
  /** `verb resource[/subresource]` → count. */
  byVerb: Record<string, number>;
  /** create, update, patch, delete and deletecollection of anything but Events. */
  writes: number;
  /** update or patch of statefulsets/status. */
  statusWrites: number;
  /** Status writes that succeeded without changing the object (its resourceVersion stayed the same). */
  unchangedStatusWrites: number;
  /** Status writes refused with 409 Conflict. */
  conflictedStatusWrites: number;
  eventCreates: number;
  /** Patches and updates of Events (client-go's count bumps). */
  eventUpdates: number;
}

const WRITES = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/** Parses the log; a line that is not JSON is an error naming its number (a truncated log is not data). */
export function parseAuditLog(text: string): AuditEvent[] {
  const out: AuditEvent[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      out.push(JSON.parse(line) as AuditEvent);
    } catch {
      throw new Error(`audit log line ${i + 1} is not JSON: ${line.slice(0, 80)}`);
    }
  });
  return out;
}

/**
 * One entry per request (a watch logs ResponseStarted and later ResponseComplete; both count once), in
 * log order, for the requests whose user agent `matches` in `namespaces`.
 */
export function requestsOf(events: readonly AuditEvent[], matches: (userAgent: string) => boolean, namespaces: ReadonlySet<string>): AuditEvent[] {
  const at = new Map<string, number>();
  const out: AuditEvent[] = [];
  for (const e of events) {
    if (!matches(e.userAgent ?? '') || !namespaces.has(e.objectRef?.namespace ?? '')) continue;
    const i = at.get(e.auditID);
    if (i === undefined) {
      at.set(e.auditID, out.push(e) - 1);
    } else if (e.stage === 'ResponseComplete') {
      out[i] = e; // the completed record carries the response
    }
  }
  return out;
}

/** The requests received in [from, to) (epoch ms). */
export function receivedBetween(requests: readonly AuditEvent[], from: number, to: number): AuditEvent[] {
  return requests.filter((e) => {
    const at = Date.parse(e.requestReceivedTimestamp ?? '');
    return at >= from && at < to;
  });
}

export function summarise(requests: readonly AuditEvent[]): RequestSummary {
  const s: RequestSummary = { requests: 0, byVerb: {}, writes: 0, statusWrites: 0, unchangedStatusWrites: 0, conflictedStatusWrites: 0, eventCreates: 0, eventUpdates: 0 };
  for (const e of requests) {
    const resource = e.objectRef?.resource ?? '?';
    const sub = e.objectRef?.subresource;
    const key = `${e.verb} ${resource}${sub ? `/${sub}` : ''}`;
    s.requests++;
    s.byVerb[key] = (s.byVerb[key] ?? 0) + 1;
    if (resource === 'events') {
      if (e.verb === 'create') s.eventCreates++;
      else if (e.verb === 'patch' || e.verb === 'update') s.eventUpdates++;
      continue;
    }
    if (!WRITES.has(e.verb)) continue;
    s.writes++;
    if (resource !== 'statefulsets' || sub !== 'status' || (e.verb !== 'update' && e.verb !== 'patch')) continue;
    s.statusWrites++;
    const code = e.responseStatus?.code ?? 0;
    if (code === 409) s.conflictedStatusWrites++;
    else if (code >= 200 && code < 300 && unchanged(e)) s.unchangedStatusWrites++;
  }
  return s;
}

/** kube-apiserver skips the storage write of an update that changes nothing: the resourceVersion stays. */
function unchanged(e: AuditEvent): boolean {
  const sent = e.requestObject?.metadata?.resourceVersion;
  const got = e.responseObject?.metadata?.resourceVersion;
  return sent !== undefined && sent !== '' && sent === got;
}

/** The distinct user agents in the log with their request counts (to see who is who). */
export function userAgents(events: readonly AuditEvent[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of events) if (e.stage !== 'ResponseStarted') out.set(e.userAgent ?? '', (out.get(e.userAgent ?? '') ?? 0) + 1);
  return out;
}
