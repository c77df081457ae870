// `ordinal kubelet` at run time: the simulated kubelet (src/cluster/kubelet) and, unless turned off, the
// simulated storage (src/cluster/storage) on a real API server, with one log line per pod change so that
// a user sees the node work. A development control plane has no node; this is one.

import type { ClusterClient } from '../../api/client.js';
import { createKubelet, type PodLifecycleEvent } from '../../cluster/kubelet/index.js';
import { StorageActor } from '../../cluster/storage/storage-actor.js';
import type { Timers } from '../../runtime/clock.js';
import type { NodeConfig } from './node-config.js';

export interface NodeOptions {
  client: ClusterClient;
  timers: Timers;
  random: () => number;
  nodeName: string;
  /** Only this namespace's pods and claims (default: all). */
  namespace?: string;
  config: NodeConfig;
  /** One line per pod change, and what the node does. */
  log(line: string): void;
  /** Unexpected API errors (each is retried). */
  error(line: string): void;
}

export interface RunningNode {
  stop(): void;
}

/** `13:04:05`: wall-clock time of day, UTC, as the log lines show it. */
const timeOfDay = (ms: number): string => new Date(ms).toISOString().slice(11, 19);

function describe(e: PodLifecycleEvent): string {
  const detail =
    e.type === 'Failed' ? ` (${e.reason ?? 'container failed'}, restarts ${e.restartCount ?? 0})` : e.type === 'Restarted' ? ` (new image, restarts ${e.restartCount ?? 0})` : '';
  return `${e.namespace}/${e.name} ${e.type}${detail}`;
}

const seconds = (s: unknown): string => (typeof s === 'number' ? `${s}s` : 'sampled');

/** Registers the node, starts both actors and resolves once the first pod list is handled. */
export async function startNode(o: NodeOptions): Promise<RunningNode> {
  let lastError = '';
  const onError = (e: unknown) => {
    const text = e instanceof Error ? e.message : String(e);
    if (text !== lastError) o.error(`error: ${text} (retrying)`);
    lastError = text;
  };
  const scope = o.namespace ? { namespace: o.namespace } : {};
  const kubelet = createKubelet({
    client: o.client,
    timers: o.timers,
    nodeName: o.nodeName,
    config: o.config.kubelet,
    ...scope,
    onError,
    onLifecycle: (e) => o.log(`${timeOfDay(e.at)} ${describe(e)}`),
  });
  const storage = o.config.storage && new StorageActor({ client: o.client, timers: o.timers, random: o.random, config: o.config.storage, ...scope, onError });
  await kubelet.start();
  storage?.start();
  const { kubelet: k } = o.config;
  o.log(
    `node ${o.nodeName} runs the pods of ${o.namespace ? `namespace ${o.namespace}` : 'every namespace'} ` +
      `(start ${seconds(k.podStartSeconds ?? 1)}, termination ${seconds(k.podTerminationSeconds ?? 1)}, ${Object.keys(k.images ?? {}).length} image behaviours); ` +
      (storage ? 'the simulated storage binds and expands their claims' : 'claims are left alone (--no-storage)'),
  );
  return {
    stop() {
      kubelet.stop();
      storage?.stop();
    },
  };
}
