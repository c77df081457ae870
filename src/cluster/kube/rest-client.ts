// The verbs of the ClusterClient port as REST calls; see kube-client.ts for the contract.

import type { ApplyOptions, DeleteOptions, EvictionOptions, JsonPatchOperation, ListOptions, ListResult, Resource, WatchHandle, WatchHandlers, WriteOptions } from '../../api/client.js';
import { apiVersionOf, Resources } from '../../api/client.js';
import { isBudgetRefusal, isGone } from '../../api/errors.js';
import type { KubeObject } from '../../api/types.js';
import { sleep, type Timers } from '../../runtime/clock.js';
import type { Connection } from './connection.js';
import type { KubeClient, KubeClientTuning, KubeLogger } from './kube-client.js';
import { resourcePath, withQuery } from './paths.js';
import { parseRetryAfter, retryDelay, type Failure, type Verb } from './retry-policy.js';
import { toApiError } from './status-errors.js';
import type { TokenBucket } from '../../runtime/token-bucket.js';
import { send, stream, TransportError, type HttpRequest, type HttpResponse, type TransportOptions } from './transport.js';
import { startWatch } from './watch-stream.js';

const MERGE_PATCH = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';
const APPLY_PATCH = 'application/apply-patch+yaml';

interface ListBody {
  metadata?: { resourceVersion?: string; continue?: string };
  items?: KubeObject[];
}

/** Lists and watch events leave out apiVersion/kind on items; callers see whole objects. */
function withTypeMeta<T extends KubeObject>(res: Resource, obj: T): T {
  if (obj.apiVersion && obj.kind) return obj;
  return { ...obj, apiVersion: obj.apiVersion || apiVersionOf(res), kind: obj.kind || res.kind };
}

function namespaceOf(res: Resource, obj: KubeObject): string | undefined {
  if (!res.namespaced) return undefined;
  const ns = obj.metadata?.namespace;
  if (!ns) throw new Error(`${res.kind} ${obj.metadata?.name ?? ''}: metadata.namespace is required`);
  return ns;
}

/** kube-apiserver's server-side dry run: admitted and answered, not stored. */
const dryRunQuery = (opts: WriteOptions | undefined): string => (opts?.dryRun ? '?dryRun=All' : '');

export class RestClient implements KubeClient {
  private readonly transport: TransportOptions;
  private readonly bucket: TokenBucket;

  constructor(
    private readonly conn: Connection,
    /** A fresh request budget (client-side QPS and burst), for this client and each withOwnBudget(). */
    private readonly budget: () => TokenBucket,
    private readonly tuning: KubeClientTuning,
    private readonly timers: Timers,
    private readonly random: () => number,
    private readonly logger?: KubeLogger,
  ) {
    this.transport = { userAgent: tuning.userAgent, requestTimeoutMs: tuning.requestTimeoutMs };
    this.bucket = budget();
  }

  withOwnBudget(): KubeClient {
    return new RestClient(this.conn, this.budget, this.tuning, this.timers, this.random, this.logger);
  }

  get server(): string {
    return this.conn.server;
  }

  close(): void {
    this.conn.close();
  }

  async get<T extends KubeObject>(res: Resource, namespace: string | undefined, name: string): Promise<T> {
    return withTypeMeta(res, await this.json<T>('get', { method: 'GET', path: resourcePath(res, namespace, name) }));
  }

  async list<T extends KubeObject>(res: Resource, namespace: string | undefined, opts?: ListOptions): Promise<ListResult<T>> {
    try {
      return await this.listPages<T>(res, namespace, opts, this.tuning.listChunkSize);
    } catch (e) {
      // The continue token expired between pages: fall back to one unpaginated list, as client-go's pager.
      if (!isGone(e)) throw e;
      return this.listPages<T>(res, namespace, opts, undefined);
    }
  }

  async create<T extends KubeObject>(res: Resource, obj: T, opts?: Pick<WriteOptions, 'dryRun'>): Promise<T> {
    const body = JSON.stringify(withTypeMeta(res, obj));
    const created = await this.json<T>('create', { method: 'POST', path: resourcePath(res, namespaceOf(res, obj)) + dryRunQuery(opts), body });
    return withTypeMeta(res, created);
  }

  update<T extends KubeObject>(res: Resource, obj: T, opts?: WriteOptions): Promise<T> {
    return this.put(res, obj, opts?.subresource, opts);
  }

  updateStatus<T extends KubeObject>(res: Resource, obj: T): Promise<T> {
    return this.put(res, obj, 'status');
  }

  async patch<T extends KubeObject>(res: Resource, namespace: string | undefined, name: string, merge: unknown, opts?: WriteOptions): Promise<T> {
    const path = resourcePath(res, namespace, name, opts?.subresource) + dryRunQuery(opts);
    const req: HttpRequest = { method: 'PATCH', path, body: JSON.stringify(merge), contentType: MERGE_PATCH };
    return withTypeMeta(res, await this.json<T>('patch', req));
  }

  async jsonPatch<T extends KubeObject>(res: Resource, namespace: string | undefined, name: string, ops: readonly JsonPatchOperation[], opts?: WriteOptions): Promise<T> {
    const path = resourcePath(res, namespace, name, opts?.subresource) + dryRunQuery(opts);
    const req: HttpRequest = { method: 'PATCH', path, body: JSON.stringify(ops), contentType: JSON_PATCH };
    return withTypeMeta(res, await this.json<T>('patch', req));
  }

  async apply<T extends KubeObject>(res: Resource, obj: T, opts: ApplyOptions): Promise<T> {
    const path = withQuery(resourcePath(res, namespaceOf(res, obj), obj.metadata.name ?? ''), { fieldManager: opts.fieldManager, force: true });
    // JSON is YAML: the apply content type takes the object as JSON text
    const req: HttpRequest = { method: 'PATCH', path, body: JSON.stringify(withTypeMeta(res, obj)), contentType: APPLY_PATCH };
    return withTypeMeta(res, await this.json<T>('patch', req));
  }

  async delete(res: Resource, namespace: string | undefined, name: string, opts?: DeleteOptions): Promise<void> {
    const body = {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      ...(opts?.uid !== undefined ? { preconditions: { uid: opts.uid } } : {}),
      ...(opts?.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: opts.gracePeriodSeconds } : {}),
      ...(opts?.propagationPolicy !== undefined ? { propagationPolicy: opts.propagationPolicy } : {}),
    };
    await this.call('delete', { method: 'DELETE', path: resourcePath(res, namespace, name), body: JSON.stringify(body) });
  }

  async evictPod(namespace: string, name: string, opts: EvictionOptions = {}): Promise<void> {
    const preconditions = { ...(opts.uid !== undefined ? { uid: opts.uid } : {}), ...(opts.resourceVersion !== undefined ? { resourceVersion: opts.resourceVersion } : {}) };
    const deleteOptions = {
      ...(Object.keys(preconditions).length > 0 ? { preconditions } : {}),
      ...(opts.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: opts.gracePeriodSeconds } : {}),
      ...(opts.dryRun === true ? { dryRun: ['All'] } : {}),
    };
    const body = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace }, deleteOptions };
    await this.call('evict', { method: 'POST', path: resourcePath(Resources.pods, namespace, name, 'eviction'), body: JSON.stringify(body) });
  }

  watch<T extends KubeObject>(res: Resource, namespace: string | undefined, resourceVersion: string, handlers: WatchHandlers<T>): WatchHandle {
    const path = resourcePath(res, namespace);
    const opener = {
      throttle: () => this.throttle(),
      open: (rv: string, timeoutSeconds: number, sink: Parameters<typeof stream>[2]) => {
        const query = { watch: 1, resourceVersion: rv || undefined, allowWatchBookmarks: true, timeoutSeconds };
        return stream(this.conn, { method: 'GET', path: withQuery(path, query) }, sink, this.transport);
      },
    };
    const typed: WatchHandlers<T> = {
      onEvent: (ev) => handlers.onEvent(ev.type === 'BOOKMARK' ? ev : { ...ev, object: withTypeMeta(res, ev.object) }),
      onClose: (err) => handlers.onClose(err),
    };
    return startWatch(opener, resourceVersion, typed, {
      timers: this.timers,
      random: this.random,
      idleTimeoutMs: this.tuning.watchIdleTimeoutMs,
      minTimeoutSeconds: this.tuning.watchMinTimeoutSeconds,
      maxFailures: this.tuning.watchMaxFailures,
      onRestart: (why, attempt, delayMs) => this.logger?.debug({ path, why, attempt, delayMs }, 'restarting watch'),
    });
  }

  private async put<T extends KubeObject>(res: Resource, obj: T, subresource: string | undefined, opts?: WriteOptions): Promise<T> {
    const path = resourcePath(res, namespaceOf(res, obj), obj.metadata.name ?? '', subresource) + dryRunQuery(opts);
    const updated = await this.json<T>('update', { method: 'PUT', path, body: JSON.stringify(withTypeMeta(res, obj)) });
    return withTypeMeta(res, updated);
  }

  private async listPages<T extends KubeObject>(res: Resource, namespace: string | undefined, opts: ListOptions | undefined, limit: number | undefined): Promise<ListResult<T>> {
    const items: T[] = [];
    let resourceVersion = '';
    let cont: string | undefined;
    do {
      const query = { labelSelector: opts?.labelSelector || undefined, limit, continue: cont };
      const page = await this.json<ListBody>('list', { method: 'GET', path: withQuery(resourcePath(res, namespace), query) });
      for (const item of page.items ?? []) items.push(withTypeMeta(res, item as T));
      resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
      cont = limit === undefined ? undefined : page.metadata?.continue || undefined;
    } while (cont);
    return { items, resourceVersion };
  }

  private async json<T>(verb: Verb, req: HttpRequest): Promise<T> {
    const res = await this.call(verb, req);
    return JSON.parse(res.body) as T;
  }

  private async throttle(): Promise<void> {
    const wait = this.bucket.reserve();
    if (wait > 0) await sleep(this.timers, wait);
  }

  /** Sends with rate limiting and retries; resolves with a 2xx response or rejects with ApiError/TransportError. */
  private async call(verb: Verb, req: HttpRequest): Promise<HttpResponse> {
    for (let attempt = 0; ; attempt++) {
      await this.throttle();
      let failure: Failure;
      let error: Error;
      try {
        const res = await send(this.conn, req, this.transport);
        if (res.status >= 200 && res.status < 300) return res;
        error = toApiError(res.status, res.body, `${req.method} ${req.path}`);
        failure = { kind: 'status', status: res.status, retryAfterSeconds: parseRetryAfter(res.headers['retry-after']), ...(isBudgetRefusal(error) ? { budgetRefusal: true } : {}) };
      } catch (e) {
        if (!(e instanceof TransportError)) throw e;
        error = e;
        failure = { kind: 'transport', code: e.code };
      }
      const delay = retryDelay(verb, attempt, failure, this.random, this.tuning.retry);
      if (delay === undefined) throw error;
      this.logger?.debug({ verb, path: req.path, attempt, delayMs: delay, error: error.message }, 'retrying request');
      await sleep(this.timers, delay);
    }
  }
}
