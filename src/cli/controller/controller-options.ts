// `ordinal controller` flags, parsed and validated into a ControllerConfig (pure: the environment and
// file checks are injected). Every problem is a UsageError naming the flag; the command exits 2 on it.

import { FeatureGateError, parseFeatureGates, type Features } from '../../api/features.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../api/validation/index.js';

export class UsageError extends Error {
  override name = 'UsageError';
}

/** The flags as commander hands them over (strings, before validation). */
export interface RawControllerFlags {
  kubeconfig?: string;
  target?: string;
  namespace?: string[];
  featureGates?: string;
  concurrentSyncs?: string;
  leaderElect?: boolean;
  leaderElectNamespace?: string;
  leaderElectId?: string;
  leaderElectLeaseDuration?: string;
  leaderElectRenewDeadline?: string;
  leaderElectRetryPeriod?: string;
  metricsBindAddress?: string;
  healthProbeBindAddress?: string;
  logFormat?: string;
  logLevel?: string;
  kubeApiQps?: string;
  kubeApiBurst?: string;
  gracefulShutdownTimeout?: string;
}

export interface BindAddress {
  /** undefined = all interfaces. */
  host?: string;
  port: number;
}

export type LogFormat = 'json' | 'text';
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface ControllerConfig {
  kubeconfig?: string;
  target: 'crd' | 'native' | 'both';
  /** undefined = all namespaces. */
  namespaces?: string[];
  features: Features;
  concurrentSyncs: number;
  leaderElection?: LeaderElectionConfig;
  /** undefined = disabled (`0`). */
  metrics?: BindAddress;
  health?: BindAddress;
  logFormat: LogFormat;
  logLevel: LogLevel;
  qps: number;
  burst: number;
  gracefulShutdownTimeoutMs: number;
}

export interface OptionsEnv {
  /** $POD_NAMESPACE (downward API). */
  podNamespace?: string;
  /** Contents of the service account's namespace file when running in a pod. */
  serviceAccountNamespace?: string;
  fileExists(path: string): boolean;
}

export const DEFAULT_LEASE_NAME = 'ordinal-controller';

export interface LeaderElectionConfig {
  namespace: string;
  id: string;
  /** kube-controller-manager's --leader-elect-lease-duration, --leader-elect-renew-deadline, --leader-elect-retry-period. */
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** client-go's JitterFactor: a candidate's retry waits up to retryPeriod × (1 + 1.2). */
const JITTER_FACTOR = 1.2;

/** `:8080`, `127.0.0.1:8080`, `[::1]:8080` or `0` (disabled). */
export function parseBindAddress(flag: string, value: string): BindAddress | undefined {
  if (value === '0') return undefined;
  const m = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(value);
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535) throw new UsageError(`--${flag}=${value}: want [host]:port (e.g. :8080) or 0 to disable`);
  const host = m[1] ?? m[2];
  return host ? { host, port } : { port };
}

function positiveInt(flag: string, value: string | undefined, dflt: number): number {
  if (value === undefined) return dflt;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${flag}=${value}: must be a positive integer`);
  return Number(value);
}

function positiveNumber(flag: string, value: string | undefined, dflt: number): number {
  if (value === undefined) return dflt;
  const n = Number(value);
  if (!value.trim() || !Number.isFinite(n) || n <= 0) throw new UsageError(`--${flag}=${value}: must be a positive number`);
  return n;
}

/** Go-style durations as the Kubernetes flags take them: `30s`, `1m30s`, `500ms`. */
export function parseDuration(flag: string, value: string): number {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== value) throw new UsageError(`--${flag}=${value}: want a duration such as 30s or 1m30s`);
  return Math.round(parts.reduce((sum, p) => sum + Number(p[1]) * (units[p[2] ?? 's'] ?? 0), 0));
}

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[], dflt: T): T {
  if (value === undefined) return dflt;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${flag}=${value}: must be one of ${allowed.join(', ')}`);
  return value as T;
}

function namespaceName(flag: string, ns: string): string {
  const errs = isDNS1123Label(ns);
  if (errs.length) throw new UsageError(`--${flag}=${ns}: ${errs.join('; ')}`);
  return ns;
}

function features(spec: string | undefined): Features {
  try {
    return parseFeatureGates(spec ?? '');
  } catch (e) {
    if (e instanceof FeatureGateError) throw new UsageError(`--feature-gates: ${e.message}`);
    throw e;
  }
}

/** The three durations, checked as client-go's NewLeaderElector checks them (same messages). */
function leaseTimings(raw: RawControllerFlags): Pick<LeaderElectionConfig, 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs'> {
  const leaseDurationMs = parseDuration('leader-elect-lease-duration', raw.leaderElectLeaseDuration ?? '15s');
  const renewDeadlineMs = parseDuration('leader-elect-renew-deadline', raw.leaderElectRenewDeadline ?? '10s');
  const retryPeriodMs = parseDuration('leader-elect-retry-period', raw.leaderElectRetryPeriod ?? '2s');
  if (retryPeriodMs < 1) throw new UsageError('--leader-elect-retry-period: retryPeriod must be greater than zero');
  if (leaseDurationMs <= renewDeadlineMs) throw new UsageError('--leader-elect-lease-duration: leaseDuration must be greater than renewDeadline');
  if (renewDeadlineMs <= JITTER_FACTOR * retryPeriodMs) throw new UsageError('--leader-elect-renew-deadline: renewDeadline must be greater than retryPeriod*JitterFactor');
  return { leaseDurationMs, renewDeadlineMs, retryPeriodMs };
}

function leaderElection(raw: RawControllerFlags, env: OptionsEnv): ControllerConfig['leaderElection'] {
  if (!raw.leaderElect) return undefined;
  const ns = raw.leaderElectNamespace ?? env.podNamespace ?? env.serviceAccountNamespace?.trim() ?? 'default';
  const id = raw.leaderElectId ?? DEFAULT_LEASE_NAME;
  const errs = isDNS1123Subdomain(id);
  if (errs.length) throw new UsageError(`--leader-elect-id=${id}: ${errs.join('; ')}`);
  return { namespace: namespaceName('leader-elect-namespace', ns), id, ...leaseTimings(raw) };
}

/** Validates every flag; throws UsageError on the first problem. */
export function parseControllerFlags(raw: RawControllerFlags, env: OptionsEnv): ControllerConfig {
  if (raw.kubeconfig !== undefined && !env.fileExists(raw.kubeconfig)) throw new UsageError(`--kubeconfig=${raw.kubeconfig}: no such file`);
  const namespaces = raw.namespace?.length ? [...new Set(raw.namespace.map((ns) => namespaceName('namespace', ns)))] : undefined;
  const metrics = parseBindAddress('metrics-bind-address', raw.metricsBindAddress ?? ':8080');
  const health = parseBindAddress('health-probe-bind-address', raw.healthProbeBindAddress ?? ':8081');
  if (metrics && health && metrics.port === health.port && metrics.port !== 0 && (metrics.host ?? '') === (health.host ?? '')) {
    throw new UsageError(`--metrics-bind-address and --health-probe-bind-address both use port ${metrics.port}`);
  }
  const qps = positiveNumber('kube-api-qps', raw.kubeApiQps, 20);
  const burst = positiveInt('kube-api-burst', raw.kubeApiBurst, 30);
  const le = leaderElection(raw, env);
  return {
    ...(raw.kubeconfig !== undefined ? { kubeconfig: raw.kubeconfig } : {}),
    target: oneOf('target', raw.target, ['crd', 'native', 'both'] as const, 'crd'),
    ...(namespaces ? { namespaces } : {}),
    features: features(raw.featureGates),
    concurrentSyncs: positiveInt('concurrent-syncs', raw.concurrentSyncs, 5),
    ...(le ? { leaderElection: le } : {}),
    ...(metrics ? { metrics } : {}),
    ...(health ? { health } : {}),
    logFormat: oneOf('log-format', raw.logFormat, ['json', 'text'] as const, 'json'),
    logLevel: oneOf('log-level', raw.logLevel, LOG_LEVELS, 'info'),
    qps,
    burst,
    gracefulShutdownTimeoutMs: parseDuration('graceful-shutdown-timeout', raw.gracefulShutdownTimeout ?? '25s'),
  };
}
