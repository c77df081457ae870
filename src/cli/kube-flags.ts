// The kubectl connection flags every cluster command takes (`--kubeconfig`, `--context`, `-n/--namespace`,
// `--request-timeout`). Kept apart from ./kube-context.ts, which connects, so that registering these flags
// loads no client code: commands that never reach a cluster start fast.

import { InvalidArgumentError, type Command } from 'commander';
import { parseGoDuration } from './explain/durations.js';

export interface KubeFlags {
  kubeconfig?: string;
  context?: string;
  namespace?: string;
  /** Milliseconds, parsed by `parseRequestTimeout`; 0 = no limit. */
  requestTimeout?: number;
}

export class KubeContextError extends Error {
  override name = 'KubeContextError';
}

/**
 * kubectl's `--request-timeout`: a Go duration, or a bare number of seconds; 0 means no limit.
 * Throws commander's InvalidArgumentError, so a bad value is a usage error like any other flag's.
 */
export function parseRequestTimeout(text: string): number {
  let ms: number;
  try {
    ms = /^\s*\d+\s*$/.test(text) ? Number(text) * 1000 : parseGoDuration(text);
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message);
  }
  if (ms < 0) throw new InvalidArgumentError('must not be negative');
  return ms;
}

/** Adds the kubectl connection flags to a command. */
export function addKubeFlags(cmd: Command): Command {
  return cmd
    .option('--kubeconfig <path>', 'path to the kubeconfig file (default: $KUBECONFIG, ~/.kube/config, in-cluster)')
    .option('--context <name>', 'the kubeconfig context to use (default: its current-context)')
    .option('-n, --namespace <ns>', "namespace of the StatefulSet (default: the context's namespace, else default)")
    .option(
      '--request-timeout <duration>',
      'give up on a server request not answered within this long (e.g. 10s, 1m; a bare number is seconds; 0, the default, waits as long as it takes)',
      parseRequestTimeout,
    );
}
