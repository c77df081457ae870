// The frame every set command runs in: find the set (either API), run the command, turn errors into
// kubectl-style messages and exit code 1. Commands get their client here, so tests pass the in-memory one.
// While a command runs against a real cluster the process is held open: the client's timers are unref'd,
// so without the hold a retry backoff with no socket open would end the process with the command unfinished.

import type { ClusterClient, Resource } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import type { StatefulSet } from '../../api/types.js';
import type { Timers } from '../../runtime/clock.js';
import { holdProcessOpen, realTimers } from '../../runtime/real-clock.js';
import { KubeContextError, type KubeFlags } from '../kube-flags.js';
import { processIO, type CommandIO } from './io.js';
import { findSet, parseSetRef, SetRefError } from './set-ref.js';

export interface CommandDeps {
  client: ClusterClient;
  namespace: string;
  io: CommandIO;
  timers: Timers;
  /** The kubeconfig context connected to (absent for the in-memory cluster). */
  context?: string;
}

/** `Error from server (NotFound): …` for API errors, as kubectl prints them; `error: …` otherwise. */
// upstream: kubectl/pkg/cmd/util/helpers.go StandardErrorMessage
export function errorMessage(e: unknown): string {
  if (e instanceof ApiError && e.code === 401) return `error: You must be logged in to the server (${e.message})`;
  if (e instanceof ApiError) return `Error from server (${e.reason}): ${e.message}`;
  if (e instanceof SetRefError && e.message.endsWith('not found')) return `Error from server (NotFound): ${e.message}`;
  return `error: ${e instanceof Error ? e.message : String(e)}`;
}

/** Finds NAME and runs `fn` on it; any error is printed and gives exit code 1. */
export async function runOnSet(
  deps: CommandDeps,
  name: string,
  fn: (found: { resource: Resource; set: StatefulSet }) => Promise<number>,
): Promise<number> {
  try {
    return await fn(await findSet(deps.client, deps.namespace, parseSetRef(name)));
  } catch (e) {
    deps.io.stderr(`${errorMessage(e)}\n`);
    return 1;
  }
}

/** For commander actions: a real cluster from the kubectl flags, the process's streams; closes the client after. */
export async function withCluster(flags: KubeFlags, fn: (deps: CommandDeps) => Promise<number>): Promise<number> {
  const timers = realTimers();
  // Loaded here, not at the top: it brings in the Kubernetes client, which only these commands need.
  const { connect } = await import('../kube-context.js');
  let ctx;
  try {
    ctx = connect(flags, timers);
  } catch (e) {
    if (!(e instanceof KubeContextError)) throw e;
    processIO.stderr(`error: ${e.message}\n`);
    return 1;
  }
  const release = holdProcessOpen();
  try {
    return await fn({ client: ctx.client, namespace: ctx.namespace, io: processIO, timers, context: ctx.context });
  } finally {
    release();
    ctx.client.close();
  }
}
