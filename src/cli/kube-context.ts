// How a CLI command reaches a real cluster: kubectl's `--kubeconfig`, `--context`, `-n/--namespace`
// (the namespace defaults to the context's, then `default`) and `--request-timeout`, giving a
// ClusterClient that fails as kubectl does. Commands themselves take the client as an argument, so tests
// hand them the in-memory cluster instead. The flags themselves are in ./kube-flags.ts, which does not load
// @kubernetes/client-node; this module does, so commands import it only when they connect.

import { KubeConfig } from '@kubernetes/client-node';
import { createKubeClient, DEFAULT_TUNING, loadKubeConfig, type KubeClient, type KubeClientTuning } from '../cluster/kube/index.js';
import { createConnection } from '../cluster/kube/connection.js';
import { RestClient } from '../cluster/kube/rest-client.js';
import { createTokenBucket } from '../runtime/token-bucket.js';
import type { Timers } from '../runtime/clock.js';
import { realRandom } from '../runtime/real-clock.js';
import { KubeContextError, type KubeFlags } from './kube-flags.js';

export { KubeContextError, parseRequestTimeout, type KubeFlags } from './kube-flags.js';

export interface KubeContext {
  client: KubeClient;
  namespace: string;
}

/** The namespace a command works in: the flag, else the context's, else `default`. */
export function namespaceOf(kc: KubeConfig, flag: string | undefined): string {
  if (flag) return flag;
  return kc.getContextObject(kc.getCurrentContext())?.namespace || 'default';
}

/**
 * kubectl's client behaviour: retry only what the server asks to be retried (client-go's 10 times), and
 * no request timeout unless `--request-timeout` sets one. A watch that cannot reconnect 4 times in a row
 * (about 6–11 s of backoff) reports its error instead of waiting forever for a server that is gone.
 */
function tuning(flags: KubeFlags): KubeClientTuning {
  return {
    ...DEFAULT_TUNING,
    userAgent: 'kubectl-ordinal',
    retry: { ...DEFAULT_TUNING.retry, maxRetries: 10, retryOn: 'server-requested' },
    requestTimeoutMs: flags.requestTimeout ?? 0,
    watchMaxFailures: 4,
  };
}

/** A client for another context than the current one (createKubeClient always uses current-context). */
function clientForContext(kc: KubeConfig, flags: KubeFlags, timers: Timers): KubeClient {
  const bucket = createTokenBucket({ qps: 50, burst: 100, clock: timers });
  return new RestClient(createConnection(kc), bucket, tuning(flags), timers, realRandom);
}

/** The kubeconfig with `context` made current (it need not have a current-context of its own). */
function loadWithContext(path: string | undefined, context: string): KubeConfig {
  const kc = new KubeConfig();
  if (path) kc.loadFromFile(path);
  else kc.loadFromDefault();
  if (kc.getContextObject(context) === null) throw new KubeContextError(`context "${context}" does not exist in the kubeconfig`);
  kc.setCurrentContext(context);
  if (!kc.getCurrentCluster()) throw new KubeContextError(`context "${context}" names no known cluster`);
  return kc;
}

function load(flags: KubeFlags): KubeConfig {
  try {
    return flags.context !== undefined ? loadWithContext(flags.kubeconfig, flags.context) : loadKubeConfig(flags.kubeconfig);
  } catch (e) {
    if (e instanceof KubeContextError) throw e;
    throw new KubeContextError(`cannot load kubeconfig: ${(e as Error).message}`);
  }
}

/** Loads the kubeconfig and builds the client; throws KubeContextError for an unusable kubeconfig or context. */
export function connect(flags: KubeFlags, timers: Timers): KubeContext {
  const kc = load(flags);
  if (flags.context !== undefined) return { client: clientForContext(kc, flags, timers), namespace: namespaceOf(kc, flags.namespace) };
  const client = createKubeClient({
    ...(flags.kubeconfig !== undefined ? { kubeconfig: flags.kubeconfig } : {}),
    qps: 50,
    burst: 100,
    timers,
    random: realRandom,
    tuning: tuning(flags),
  });
  return { client, namespace: namespaceOf(kc, flags.namespace) };
}
