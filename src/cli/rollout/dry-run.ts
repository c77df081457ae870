// kubectl's `--dry-run=none|client|server` for the commands that write (rollout undo, rollout restart):
// client prints what would be done and sends nothing; server sends the write with `?dryRun=All`, so
// kube-apiserver admits and validates it without storing it.

import { Option } from 'commander';

export type DryRun = 'none' | 'client' | 'server';

export const dryRunOption = (): Option =>
  new Option('--dry-run <strategy>', 'none (write), client (send nothing) or server (the API server admits the write but stores nothing)')
    .choices(['none', 'client', 'server'])
    .default('none');

/** kubectl's suffix for the message of a dry run. */
export const dryRunSuffix = (dryRun: DryRun): string => (dryRun === 'client' ? ' (dry run)' : dryRun === 'server' ? ' (server dry run)' : '');
