// The `ClusterClient` port (src/api/client.ts) on a real API server. It only translates: REST paths from
// `Resource`, JSON bodies, HTTP statuses to ApiError classes, plus the transport concerns a real server
// needs (client-side QPS/burst, retries of throttled or failed idempotent requests, resilient watches).
// Conflict handling, requeues and anything StatefulSet-specific live above it.

import type { ClusterClient, RequestScope } from '../../api/client.js';
import type { Timers } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logging-port.js';
import { createConnection } from './connection.js';
import { loadKubeConfig } from './kubeconfig.js';
import { RestClient } from './rest-client.js';
import { DEFAULT_RETRY, type RetryPolicy } from './retry-policy.js';
import { createTokenBucket } from '../../runtime/token-bucket.js';

/** The adapter logs retries and watch restarts at debug level (pino's call shape, runtime/logging-port.ts). */
export type KubeLogger = Pick<Logger, 'debug' | 'warn'>;

export interface KubeClientOptions {
  /** Path of a kubeconfig file; default: $KUBECONFIG, ~/.kube/config, then the in-cluster service account. */
  kubeconfig?: string;
  /** A kubeconfig context other than its current-context. */
  context?: string;
  /** Client-side request rate (default 20, as kube-controller-manager); `<= 0` disables the limit. */
  qps?: number;
  /** Requests allowed back to back (default 30). */
  burst?: number;
  timers: Timers;
  random: () => number;
  logger?: KubeLogger;
  /** Tuning for tests; the defaults suit a real cluster. */
  tuning?: Partial<KubeClientTuning>;
}

export interface KubeClientTuning {
  retry: RetryPolicy;
  /** Page size of list requests. */
  listChunkSize: number;
  /** Silence after which a watch is restarted (the server sends a BOOKMARK about every minute). */
  watchIdleTimeoutMs: number;
  /** Server-side watch length is random in [min, 2·min) seconds, as client-go's reflector. */
  watchMinTimeoutSeconds: number;
  /** Consecutive failed watch attempts after which the watch reports the error (Infinity: never). */
  watchMaxFailures: number;
  /** How long a request may wait for the server; 0 = no limit. */
  requestTimeoutMs: number;
  userAgent: string;
}

export const DEFAULT_TUNING: KubeClientTuning = {
  retry: DEFAULT_RETRY,
  listChunkSize: 500,
  watchIdleTimeoutMs: 5 * 60_000,
  watchMinTimeoutSeconds: 5 * 60,
  watchMaxFailures: Infinity,
  requestTimeoutMs: 90_000,
  userAgent: 'ordinal-controller',
};

/** A ClusterClient that can also release its sockets. */
export interface KubeClient extends ClusterClient {
  /** The API server URL in use (for logs). */
  readonly server: string;
  /**
   * A client on the same connection with a request budget of its own (the same QPS and burst): what it
   * sends (Events) never waits for this client's tokens, nor makes this client's requests wait.
   */
  withOwnBudget(): KubeClient;
  /** A view on the same budget whose requests carry `scope` (fairness flow, cancellation, write fence). */
  withScope(scope: RequestScope): KubeClient;
  close(): void;
  /** Resets every connection (TCP RST): nothing already handed to a socket reaches the server afterwards. */
  resetConnections(): void;
}

/** Builds the client; loading the kubeconfig is synchronous and throws when it is unusable. */
export function createKubeClient(opts: KubeClientOptions): KubeClient {
  const conn = createConnection(loadKubeConfig(opts.kubeconfig, opts.context));
  const tuning: KubeClientTuning = { ...DEFAULT_TUNING, ...opts.tuning };
  const budget = () => createTokenBucket({ qps: opts.qps ?? 20, burst: opts.burst ?? 30, clock: opts.timers });
  return new RestClient(conn, budget, tuning, opts.timers, opts.random, opts.logger);
}
