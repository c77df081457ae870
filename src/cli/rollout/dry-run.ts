// kubectl's `--dry-run=none|client|server` for the commands that write (rollout undo, rollout restart):
// client prints what would be done and sends nothing; server sends the write with `?dryRun=All`, so
// kube-apiserver admits and validates it without storing it.

import { Option } from 'commander';
import type { ClusterClient, Resource } from '../../api/client.js';
import { defaultStatefulSet } from '../../api/defaults.js';
import { defaultFeatures } from '../../api/features.js';
import type { StatefulSet } from '../../api/types.js';
import { admitStatefulSetUpdate } from '../../cluster/memory/statefulset-admission.js';

export type DryRun = 'none' | 'client' | 'server';

export const dryRunOption = (): Option =>
  new Option('--dry-run <strategy>', 'none (write), client (send nothing) or server (the API server admits the write but stores nothing)')
    .choices(['none', 'client', 'server'])
    .default('none');

/** kubectl's suffix for the message of a dry run. */
export const dryRunSuffix = (dryRun: DryRun): string => (dryRun === 'client' ? ' (dry run)' : dryRun === 'server' ? ' (server dry run)' : '');

/**
 * --dry-run=client: the update of `stored` to `next` through the API server's checks (strict fields,
 * defaulting, the validation of an update), as the in-memory API server makes them, with nothing sent; throws
 * the error the API server would answer. `stored` is defaulted first, as the in-memory server stores it (a
 * CRD keeps the templates as written).
 */
export function checkUpdate(resource: Resource, next: StatefulSet, stored: StatefulSet): void {
  const features = defaultFeatures();
  admitStatefulSetUpdate(resource, next, defaultStatefulSet(stored, features), 'main', features);
}

/** Sends a merge patch of the set (none for --dry-run=client; `dryRun=All` for server). */
export async function patchSet(client: ClusterClient, resource: Resource, set: StatefulSet, patch: unknown, dryRun: DryRun): Promise<void> {
  if (dryRun === 'client') return;
  await client.patch<StatefulSet>(resource, set.metadata.namespace ?? 'default', set.metadata.name ?? '', patch, { dryRun: dryRun === 'server' });
}
