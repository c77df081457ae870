// List, then watch from the list's resourceVersion; reconnect with jittered exponential backoff on the
// injected Timers, relisting when the server says the resourceVersion is gone (410).

import type { ClusterClient, Resource, WatchEvent, WatchHandle } from '../api/client.js';
import { isGone } from '../api/errors.js';
import type { KubeObject } from '../api/types.js';
import type { TimerId, Timers } from './clock.js';
import { noopLogger, type Logger } from './logging-port.js';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff.js';

export interface ReflectorSink<T> {
  /** A list completed: the scope's content is exactly `items`. */
  replace(items: T[]): void;
  /** One watch event (never BOOKMARK). */
  event(event: WatchEvent<T>): void;
}

export interface ReflectorOptions<T> {
  client: ClusterClient;
  resource: Resource;
  /** undefined = all namespaces. */
  namespace: string | undefined;
  labelSelector?: string;
  timers: Timers;
  /** Uniform in [0, 1); injected so that the simulator's seed decides the jitter (T8). */
  random: () => number;
  sink: ReflectorSink<T>;
  /** Reconnect backoff (client-go's reflector: 800 ms doubling to 30 s, jitter 1.0). */
  backoff?: BackoffPolicy;
  logger?: Logger;
  /** Called with every failed list before the retry (client-go's WatchErrorHandler): a one-shot reader stops on it. */
  onListError?: (err: unknown) => void;
}

// upstream: client-go/tools/cache/reflector.go ListAndWatch
export class Reflector<T extends KubeObject> {
  private epoch = 0;
  private running = false;
  private failures = 0;
  private watchHandle: WatchHandle | undefined;
  private retryTimer: TimerId | undefined;
  private lastRV = '';
  private synced = false;
  private readonly log: Logger;

  constructor(private readonly opts: ReflectorOptions<T>) {
    this.log = opts.logger ?? noopLogger;
  }

  hasSynced(): boolean {
    return this.synced;
  }

  lastSyncResourceVersion(): string {
    return this.lastRV;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.relist(++this.epoch);
  }

  stop(): void {
    this.running = false;
    this.epoch++;
    this.watchHandle?.stop();
    this.watchHandle = undefined;
    if (this.retryTimer !== undefined) this.opts.timers.cancel(this.retryTimer);
    this.retryTimer = undefined;
  }

  private current(epoch: number): boolean {
    return this.running && epoch === this.epoch;
  }

  private async relist(epoch: number): Promise<void> {
    const { client, resource, namespace, labelSelector } = this.opts;
    try {
      const res = await client.list<T>(resource, namespace, labelSelector ? { labelSelector } : undefined);
      if (!this.current(epoch)) return;
      this.lastRV = res.resourceVersion;
      this.synced = true;
      this.opts.sink.replace(res.items);
      this.failures = 0;
      this.watch(epoch);
    } catch (err) {
      if (!this.current(epoch)) return;
      this.log.warn({ resource: resource.plural, namespace, err: String(err) }, 'list failed; retrying');
      this.opts.onListError?.(err);
      this.retry(epoch, 'relist');
    }
  }

  private watch(epoch: number): void {
    const { client, resource, namespace } = this.opts;
    try {
      this.watchHandle = client.watch<T>(resource, namespace, this.lastRV, {
        onEvent: (e) => this.current(epoch) && this.onEvent(e),
        onClose: (err) => this.current(epoch) && this.onClose(epoch, err),
      });
    } catch (err) {
      this.onClose(epoch, err instanceof Error ? err : new Error(String(err)));
    }
  }

  private onEvent(e: WatchEvent<T>): void {
    const rv = e.object.metadata.resourceVersion;
    if (rv) this.lastRV = rv;
    this.failures = 0;
    if (e.type !== 'BOOKMARK') this.opts.sink.event(e);
  }

  private onClose(epoch: number, err: Error | undefined): void {
    this.watchHandle = undefined;
    const relist = err !== undefined;
    if (err !== undefined && !isGone(err)) {
      this.log.warn({ resource: this.opts.resource.plural, err: String(err) }, 'watch failed; relisting');
    }
    this.retry(epoch, relist ? 'relist' : 'rewatch');
  }

  private retry(epoch: number, what: 'relist' | 'rewatch'): void {
    const delay = backoffDelay(this.failures++, this.opts.random, this.opts.backoff ?? DEFAULT_BACKOFF);
    const label = `informer ${what} ${this.opts.resource.plural}`;
    this.retryTimer = this.opts.timers.at(
      this.opts.timers.now() + delay,
      () => {
        this.retryTimer = undefined;
        if (!this.current(epoch)) return;
        if (what === 'relist') void this.relist(epoch);
        else this.watch(epoch);
      },
      label,
    );
  }
}
