// Request scopes (api/client.ts RequestScope): merging a view's scope with a narrower one, the one check a
// write makes before it is sent, and a view for adapters that have no request queue of their own (the
// in-memory API server, test fakes), which checks the signal and the fence before each call. The kube adapter
// implements withScope itself: it also queues by flow and checks again when the socket is ready.

import type { ClusterClient, RequestScope } from '../api/client.js';

/** A signal aborted by either (the first reason wins). */
function eitherSignal(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  if (a === undefined || b === undefined || a === b) return a ?? b;
  if (a.aborted) return a;
  if (b.aborted) return b;
  const both = new AbortController();
  const forward = (s: AbortSignal) => () => both.abort(s.reason);
  a.addEventListener('abort', forward(a), { once: true });
  b.addEventListener('abort', forward(b), { once: true });
  return both.signal;
}

/** `inner` narrows `outer`: its flow replaces outer's; signals and fences add up. */
export function mergeScopes(outer: RequestScope, inner: RequestScope): RequestScope {
  const signal = eitherSignal(outer.signal, inner.signal);
  const fences = [outer.fence, inner.fence].filter((f) => f !== undefined);
  const fence = fences.length < 2 ? fences[0] : { refusal: () => fences[0]!.refusal() ?? fences[1]!.refusal() };
  const flow = inner.flow ?? outer.flow;
  return { ...(flow !== undefined ? { flow } : {}), ...(signal ? { signal } : {}), ...(fence ? { fence } : {}) };
}

/** Why a request of `scope` may not go now: its signal aborted (any request), or its fence refuses (writes). */
export function scopeRefusal(scope: RequestScope, write: boolean): Error | undefined {
  if (scope.signal?.aborted) return scope.signal.reason instanceof Error ? scope.signal.reason : new Error(String(scope.signal.reason));
  return write ? scope.fence?.refusal() : undefined;
}

/** `client`'s own scoped view when it has one, else a checking view. */
export function scopedClient(client: ClusterClient, scope: RequestScope): ClusterClient {
  return client.withScope?.(scope) ?? new CheckingClient(client, scope);
}

class CheckingClient implements ClusterClient {
  constructor(
    private readonly inner: ClusterClient,
    private readonly scope: RequestScope,
  ) {}

  withScope(scope: RequestScope): ClusterClient {
    return new CheckingClient(this.inner, mergeScopes(this.scope, scope));
  }

  private async go<T>(write: boolean, call: () => Promise<T>): Promise<T> {
    const refusal = scopeRefusal(this.scope, write);
    if (refusal !== undefined) throw refusal;
    return call();
  }

  get: ClusterClient['get'] = (res, ns, name) => this.go(false, () => this.inner.get(res, ns, name));
  list: ClusterClient['list'] = (res, ns, opts) => this.go(false, () => this.inner.list(res, ns, opts));
  create: ClusterClient['create'] = (res, obj) => this.go(true, () => this.inner.create(res, obj));
  update: ClusterClient['update'] = (res, obj, opts) => this.go(true, () => this.inner.update(res, obj, opts));
  updateStatus: ClusterClient['updateStatus'] = (res, obj) => this.go(true, () => this.inner.updateStatus(res, obj));
  patch: ClusterClient['patch'] = (res, ns, name, merge, opts) => this.go(true, () => this.inner.patch(res, ns, name, merge, opts));
  jsonPatch: ClusterClient['jsonPatch'] = (res, ns, name, ops, opts) => this.go(true, () => this.inner.jsonPatch(res, ns, name, ops, opts));
  apply: ClusterClient['apply'] = (res, obj, opts) => this.go(true, () => this.inner.apply(res, obj, opts));
  delete: ClusterClient['delete'] = (res, ns, name, opts) => this.go(true, () => this.inner.delete(res, ns, name, opts));
  evictPod: ClusterClient['evictPod'] = (ns, name, opts) => this.go(true, () => this.inner.evictPod(ns, name, opts));
  watch: ClusterClient['watch'] = (res, ns, rv, handlers) => this.inner.watch(res, ns, rv, handlers);
}
