// How a CLI command reaches a real cluster: kubectl's `--kubeconfig`, `--context` and `-n/--namespace`
// (the namespace defaults to the context's, then `default`), giving a ClusterClient. Commands themselves
// take the client as an argument, so tests hand them the in-memory cluster instead.

import { KubeConfig } from '@kubernetes/client-node';
import type { Command } from 'commander';
import { createKubeClient, DEFAULT_TUNING, loadKubeConfig, type KubeClient } from '../cluster/kube/index.js';
import { createConnection } from '../cluster/kube/connection.js';
import { RestClient } from '../cluster/kube/rest-client.js';
import { createTokenBucket } from '../cluster/kube/token-bucket.js';
import type { Timers } from '../runtime/clock.js';

export interface KubeFlags {
  kubeconfig?: string;
  context?: string;
  namespace?: string;
}

export interface KubeContext {
  client: KubeClient;
  namespace: string;
}

export class KubeContextError extends Error {
  override name = 'KubeContextError';
}

/** Adds the three kubectl connection flags to a command. */
export function addKubeFlags(cmd: Command): Command {
  return cmd
    .option('--kubeconfig <path>', 'path to the kubeconfig file (default: $KUBECONFIG, ~/.kube/config, in-cluster)')
    .option('--context <name>', 'the kubeconfig context to use (default: its current-context)')
    .option('-n, --namespace <ns>', "namespace of the StatefulSet (default: the context's namespace, else default)");
}

/** The namespace a command works in: the flag, else the context's, else `default`. */
export function namespaceOf(kc: KubeConfig, flag: string | undefined): string {
  if (flag) return flag;
  return kc.getContextObject(kc.getCurrentContext())?.namespace || 'default';
}

const TUNING = { ...DEFAULT_TUNING, userAgent: 'kubectl-ordinal', requestTimeoutMs: 30_000 };

/** A client for another context than the current one (createKubeClient always uses current-context). */
function clientForContext(kc: KubeConfig, timers: Timers): KubeClient {
  const bucket = createTokenBucket({ qps: 50, burst: 100, clock: timers });
  return new RestClient(createConnection(kc), bucket, TUNING, timers, Math.random);
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
  if (flags.context !== undefined) return { client: clientForContext(kc, timers), namespace: namespaceOf(kc, flags.namespace) };
  const client = createKubeClient({
    ...(flags.kubeconfig !== undefined ? { kubeconfig: flags.kubeconfig } : {}),
    qps: 50,
    burst: 100,
    timers,
    random: Math.random,
    tuning: TUNING,
  });
  return { client, namespace: namespaceOf(kc, flags.namespace) };
}
