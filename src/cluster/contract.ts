// The ClusterClient contract: one node:test suite that every adapter runs — the in-memory
// API server and, against a real kube-apiserver, the kube adapter. It asserts only
// what both do; simulator-only behaviour is tested beside the memory cluster. A deviation of an adapter
// is a `skip` entry with a written reason.

import { describe, it } from 'node:test';
import { Resources, type ClusterClient } from '../api/client.js';
import type { Pod } from '../api/types.js';
import { sleep } from '../runtime/clock.js';
import { realTimers } from '../runtime/real-clock.js';
import { CONTRACT_CASES, type ContractHarness } from './contract-cases.js';

export interface ContractCluster {
  client: ClusterClient;
  /** Lets `ms` of the cluster's time pass: a virtual clock advances, a real cluster is waited for (default). */
  advance?: (ms: number) => Promise<void>;
  /** Finishes a pod's graceful deletion as a kubelet would (default: delete with gracePeriodSeconds 0 and the UID). */
  finishPodDeletion?: (pod: Pod) => Promise<void>;
  /** Makes every resourceVersion issued so far too old to watch from; without it the 410 case is skipped. */
  expireHistory?: () => Promise<void>;
  /** Namespace the cases write in (default `default`); give each cluster a fresh one on a shared server. */
  namespace?: string;
  close(): Promise<void>;
}

export interface ClusterContractOptions {
  name: string;
  /** Called once per case. */
  newCluster: () => Promise<ContractCluster>;
  skip?: { reason: string; tests: string[] }[];
  /** Cluster time allowed for eventual effects such as garbage collection (default 30 s). */
  eventuallyMs?: number;
}

/** Names of every case, for `skip` lists. */
export const CONTRACT_CASE_NAMES: readonly string[] = Object.keys(CONTRACT_CASES);

export function runClusterContract(opts: ClusterContractOptions): void {
  const skipped = new Map<string, string>();
  for (const s of opts.skip ?? []) for (const t of s.tests) skipped.set(t, s.reason);
  describe(`ClusterClient contract: ${opts.name}`, () => {
    for (const [name, run] of Object.entries(CONTRACT_CASES)) {
      const reason = skipped.get(name);
      it(name, reason !== undefined ? { skip: reason } : {}, async (t) => {
        const cluster = await opts.newCluster();
        try {
          const h = harness(cluster, opts.eventuallyMs ?? 30_000);
          if (run.needs === 'expireHistory' && !cluster.expireHistory) return t.skip('the adapter has no expireHistory hook');
          await run.test(h);
        } finally {
          await cluster.close();
        }
      });
    }
  });
}

const STEP_MS = 100;

function harness(cluster: ContractCluster, eventuallyMs: number): ContractHarness {
  const timers = realTimers();
  const advance = cluster.advance ?? ((ms: number) => sleep(timers, ms));
  const client = cluster.client;
  return {
    client,
    namespace: cluster.namespace ?? 'default',
    advance,
    expireHistory: cluster.expireHistory ?? (async () => {}),
    finishPodDeletion:
      cluster.finishPodDeletion ??
      ((pod) => client.delete(Resources.pods, pod.metadata.namespace, pod.metadata.name ?? '', { gracePeriodSeconds: 0, uid: pod.metadata.uid })),
    async eventually(check, what) {
      for (let waited = 0; ; waited += STEP_MS) {
        if (await check()) return;
        if (waited >= eventuallyMs) throw new Error(`${what}: not observed within ${eventuallyMs} ms of cluster time`);
        await advance(STEP_MS);
      }
    },
  };
}
