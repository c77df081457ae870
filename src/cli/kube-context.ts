// How a CLI command reaches a real cluster: kubectl's `--kubeconfig`, `--context`, `-n/--namespace`
// (the namespace defaults to the context's, then `default`) and `--request-timeout`, giving a
// ClusterClient that fails as kubectl does. Commands themselves take the client as an argument, so tests
// hand them the in-memory cluster instead. The flags themselves are in ./kube-flags.ts, which loads no
// client code; this module does, so commands import it only when they connect.

import { DEFAULT_TUNING, loadKubeConfig, type KubeClient, type KubeClientTuning, type KubeConfig } from '../cluster/kube/index.js';
import { createConnection } from '../cluster/kube/connection.js';
import { UnknownContextError } from '../cluster/kube/kubeconfig.js';
import { RestClient } from '../cluster/kube/rest-client.js';
import { createTokenBucket } from '../runtime/token-bucket.js';
import type { Timers } from '../runtime/clock.js';
import { realRandom } from '../runtime/real-clock.js';
import { KubeContextError, type KubeFlags } from './kube-flags.js';

export { KubeContextError, parseRequestTimeout, type KubeFlags } from './kube-flags.js';

export interface KubeContext {
  client: KubeClient;
  namespace: string;
  /** The kubeconfig context's name (what the dashboard says it acts as). */
  context: string;
}

/** The namespace a command works in: the flag, else the context's, else `default`. */
export function namespaceOf(kc: KubeConfig, flag: string | undefined): string {
  if (flag) return flag;
  return kc.context.namespace ?? 'default';
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

function load(flags: KubeFlags): KubeConfig {
  try {
    return loadKubeConfig(flags.kubeconfig, flags.context);
  } catch (e) {
    if (e instanceof UnknownContextError) throw new KubeContextError(e.message);
    throw new KubeContextError(`cannot load kubeconfig: ${(e as Error).message}`);
  }
}

/** Loads the kubeconfig and builds the client; throws KubeContextError for an unusable kubeconfig or context. */
export function connect(flags: KubeFlags, timers: Timers): KubeContext {
  const kc = load(flags);
  const budget = () => createTokenBucket({ qps: 50, burst: 100, clock: timers });
  return { client: new RestClient(createConnection(kc), budget, tuning(flags), timers, realRandom), namespace: namespaceOf(kc, flags.namespace), context: kc.context.name };
}
