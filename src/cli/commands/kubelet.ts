// `ordinal kubelet`: the simulated node for a cluster that has none (the development control plane of
// scripts/control-plane/): binds pods to a Node it registers, runs them as the scenario format's `cluster`
// block says (start and termination times, image behaviours), finishes their deletions, and binds and
// expands claims as the simulated storage does. Runs until SIGINT or SIGTERM (exit 0). A bad file exits 2,
// naming each bad field; an unusable kubeconfig exits 1.

import { readFileSync } from 'node:fs';
import { InvalidArgumentError, type Command } from 'commander';
import { ScenarioError } from '../../sim/scenario-fields.js';
import { seconds } from '../explain/change-flags.js';
import { nodeConfig, type NodeConfig, type NodeFlags } from '../kubelet/node-config.js';
import type { KubeFlags } from '../kube-flags.js';

export interface KubeletOptions extends NodeFlags, Pick<KubeFlags, 'kubeconfig' | 'context' | 'namespace'> {
  nodeName: string;
  /** A file with the scenario format's `cluster` block, or a scenario. */
  filename?: string;
}

/** The settings from the file and the flags; prints the problem and returns undefined for exit 2. */
function configOf(opts: KubeletOptions): NodeConfig | undefined {
  try {
    const file = opts.filename === undefined ? undefined : { text: readFileSync(opts.filename, 'utf8'), source: opts.filename };
    return nodeConfig(file, opts);
  } catch (e) {
    if (e instanceof ScenarioError) process.stderr.write(e.issues.length ? e.issues.map((i) => `error: ${e.source}: ${i.path || '(file)'}: ${i.message}\n`).join('') : `error: ${e.message}\n`);
    else if ((e as NodeJS.ErrnoException).code !== undefined) process.stderr.write(`error: ${opts.filename}: cannot read file: ${(e as Error).message}\n`);
    else throw e;
    return undefined;
  }
}

async function action(opts: KubeletOptions): Promise<void> {
  const config = configOf(opts);
  if (config === undefined) {
    process.exitCode = 2;
    return;
  }
  // Loaded only now: the Kubernetes client and the actors, which other commands do not need.
  const { createKubeClient } = await import('../../cluster/kube/index.js');
  const { holdProcessOpen, realRandom, realTimers } = await import('../../runtime/real-clock.js');
  const { startNode } = await import('../kubelet/node.js');
  const timers = realTimers();
  let client;
  try {
    client = createKubeClient({
      ...(opts.kubeconfig ? { kubeconfig: opts.kubeconfig } : {}),
      ...(opts.context ? { context: opts.context } : {}),
      timers,
      random: realRandom,
      tuning: { userAgent: 'ordinal-kubelet' },
    });
  } catch (e) {
    process.stderr.write(`error: cannot load kubeconfig: ${(e as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
  const release = holdProcessOpen();
  const node = await startNode({
    client,
    timers,
    random: realRandom,
    nodeName: opts.nodeName,
    ...(opts.namespace ? { namespace: opts.namespace } : {}),
    config,
    log: (line) => process.stdout.write(`${line}\n`),
    error: (line) => process.stderr.write(`${line}\n`),
  });
  const stop = () => {
    node.stop();
    client.close();
    release();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

const nodeName = (text: string): string => {
  if (!/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/.test(text)) throw new InvalidArgumentError('must be a lowercase DNS subdomain (a-z, 0-9, -, .)');
  return text;
};

export function register(program: Command): void {
  program
    .command('kubelet')
    .description('play the node of a cluster that has none (e.g. scripts/control-plane/up.sh): bind and run its pods, bind and expand its claims, as the simulator does')
    .option('--kubeconfig <path>', 'kubeconfig file (default: $KUBECONFIG, ~/.kube/config, then the in-cluster service account)')
    .option('--context <name>', 'the kubeconfig context to use (default: its current-context)')
    .option('-n, --namespace <ns>', 'run only the pods and claims of this namespace (default: every namespace)')
    .option('--node-name <name>', 'name of the Node it registers and binds pods to', nodeName, 'ordinal-kubelet')
    .option('-f, --filename <file>', "the scenario format's cluster block (podStartSeconds, podTerminationSeconds, images, storage), or a scenario whose block to use")
    .option('--pod-start-seconds <s>', 'seconds from a pod being bound to Running and Ready (default: 1, or the file\'s)', seconds('--pod-start-seconds'))
    .option('--termination-seconds <s>', 'seconds a deleted pod takes to go, its grace period at most (default: 1, or the file\'s)', seconds('--termination-seconds'))
    .option('--no-storage', 'leave claims alone instead of binding and expanding them')
    .action(action);
}
