// A watch that survives what real API servers do (client-go's reflector, minus the cache):
// - resumes from the last resourceVersion it saw (events and BOOKMARKs) when the server ends the stream
//   (its timeoutSeconds) or the connection drops, with jittered backoff after failures;
// - restarts a stream that has been silent for `idleTimeoutMs` (half-open TCP, stuck proxies): the
//   server sends a BOOKMARK about once a minute, so silence means the connection is dead;
// - reports 410 Gone (HTTP or an ERROR event) as onClose(GoneError) so the caller relists, and a
//   non-retryable rejection (403, 404 …) as onClose(ApiError); with `maxFailures`, also the last error
//   once that many attempts in a row have failed (a CLI gives up on a server that is gone; the
//   controller leaves it unset and retries forever); nothing else closes it but stop().
// All waiting is on the injected Timers; randomness is injected.

import type { KubeObject } from '../../api/types.js';
import type { WatchEvent, WatchHandle, WatchHandlers } from '../../api/client.js';
import type { TimerId, Timers } from '../../runtime/clock.js';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from '../../runtime/backoff.js';
import { isRetryableFailure, parseRetryAfter } from './retry-policy.js';
import { toApiError, watchStatusError } from './status-errors.js';
import type { StreamEnd, StreamHandle } from './transport.js';

export interface WatchOpener {
  /** Opens one watch request from `resourceVersion`; `timeoutSeconds` is the server-side stream length. */
  open(resourceVersion: string, timeoutSeconds: number, sink: { onLine(line: string): void; onEnd(end: StreamEnd): void }): StreamHandle;
  /** Waits for the client-side rate limiter before a (re)connect. */
  throttle(): Promise<void>;
}

export interface WatchOptions {
  timers: Timers;
  random: () => number;
  /** No event or bookmark for this long ⇒ the stream is restarted. */
  idleTimeoutMs: number;
  /** Server-side stream length is drawn from [min, 2·min) like client-go's reflector. */
  minTimeoutSeconds: number;
  backoff?: BackoffPolicy;
  /** Consecutive failed attempts after which the watch closes with the last error; unset: never. */
  maxFailures?: number;
  onRestart?: (why: string, attempt: number, delayMs: number) => void;
}

const EVENT_TYPES: ReadonlySet<string> = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK']);

interface RawEvent {
  type?: string;
  object?: KubeObject;
}

/** Starts watching at once; see the file comment for what ends the watch. */
export function startWatch<T extends KubeObject>(
  opener: WatchOpener,
  resourceVersion: string,
  handlers: WatchHandlers<T>,
  opts: WatchOptions,
): WatchHandle {
  const watch = new ResilientWatch<T>(opener, resourceVersion, handlers, opts);
  watch.connect();
  return { stop: () => watch.stop() };
}

class ResilientWatch<T extends KubeObject> {
  private stopped = false;
  private failures = 0;
  private current: StreamHandle | undefined;
  /** Either the watchdog (while connected) or the reconnect backoff (while not): never both. */
  private pending: TimerId | undefined;
  private lastActivity: number;
  private linesThisStream = 0;

  constructor(
    private readonly opener: WatchOpener,
    private resourceVersion: string,
    private readonly handlers: WatchHandlers<T>,
    private readonly opts: WatchOptions,
  ) {
    this.lastActivity = opts.timers.now();
  }

  stop(): void {
    this.stopped = true;
    this.current?.abort();
    this.current = undefined;
    if (this.pending !== undefined) this.opts.timers.cancel(this.pending);
    this.pending = undefined;
  }

  connect(): void {
    void this.opener.throttle().then(() => {
      if (this.stopped) return;
      const timeoutSeconds = Math.floor(this.opts.minTimeoutSeconds * (1 + this.opts.random()));
      this.lastActivity = this.opts.timers.now();
      this.linesThisStream = 0;
      this.current = this.opener.open(this.resourceVersion, timeoutSeconds, {
        onLine: (line) => this.onLine(line),
        onEnd: (end) => this.onEnd(end),
      });
      this.schedule(this.lastActivity + this.opts.idleTimeoutMs, () => this.watchdog(), 'watch-watchdog');
    });
  }

  private close(error: Error): void {
    if (this.stopped) return;
    this.stop();
    this.handlers.onClose(error);
  }

  private schedule(when: number, task: () => void, label: string): void {
    if (this.pending !== undefined) this.opts.timers.cancel(this.pending);
    this.pending = this.opts.timers.at(
      when,
      () => {
        this.pending = undefined;
        if (!this.stopped) task();
      },
      label,
    );
  }

  /**
   * Reconnects after `delayMs`, or after the next backoff step when the restart is a failure; closes with
   * `cause` instead when that failure is the last one `maxFailures` allows.
   */
  private restart(why: string, failure: boolean, delayMs?: number, cause?: Error): void {
    this.current?.abort();
    this.current = undefined;
    if (failure && this.failures + 1 >= (this.opts.maxFailures ?? Infinity)) return this.close(cause ?? new Error(why));
    const delay = delayMs ?? (failure ? backoffDelay(this.failures, this.opts.random, this.opts.backoff ?? DEFAULT_BACKOFF) : 0);
    if (failure) this.failures++;
    this.opts.onRestart?.(why, this.failures, delay);
    this.schedule(this.opts.timers.now() + delay, () => this.connect(), 'watch-reconnect');
  }

  private watchdog(): void {
    const silentFor = this.opts.timers.now() - this.lastActivity;
    if (silentFor >= this.opts.idleTimeoutMs) return this.restart(`no event or bookmark for ${silentFor} ms`, true);
    this.schedule(this.lastActivity + this.opts.idleTimeoutMs, () => this.watchdog(), 'watch-watchdog');
  }

  private onLine(line: string): void {
    if (this.stopped) return;
    this.lastActivity = this.opts.timers.now();
    this.linesThisStream++;
    let ev: RawEvent;
    try {
      ev = JSON.parse(line) as RawEvent;
    } catch {
      return this.restart(`undecodable watch event: ${line.slice(0, 120)}`, true);
    }
    if (ev.type === 'ERROR') {
      const err = watchStatusError(ev.object);
      if (err.code === 410) return this.close(err);
      return this.restart(`watch ERROR event: ${err.message}`, true, undefined, err);
    }
    if (!ev.type || !EVENT_TYPES.has(ev.type) || !ev.object) return;
    this.failures = 0;
    const rv = ev.object.metadata?.resourceVersion;
    if (rv) this.resourceVersion = rv;
    this.handlers.onEvent({ type: ev.type, object: ev.object } as WatchEvent<T>);
  }

  private onEnd(end: StreamEnd): void {
    this.current = undefined;
    if (this.stopped) return;
    // A stream the server ends cleanly is normal (timeoutSeconds); one that ends before saying
    // anything is a misbehaving server or proxy and must not become a hot loop.
    if (end.kind === 'closed') return this.restart('server closed the watch', this.linesThisStream === 0);
    if (end.kind === 'dropped') return this.restart(end.error.message, true, undefined, end.error);
    const { status, headers, body } = end.response;
    const err = toApiError(status, body, 'watch');
    if (status === 410 || !isRetryableFailure('watch', { kind: 'status', status })) return this.close(err);
    const retryAfter = parseRetryAfter(headers['retry-after']);
    this.restart(err.message, true, retryAfter === undefined ? undefined : retryAfter * 1000, err);
  }
}
