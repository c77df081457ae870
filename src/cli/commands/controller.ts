// `ordinal controller`: reconciles StatefulSets on a real cluster. Flags are
// validated first (a bad flag exits 2 with a message naming it); the runtime and the Kubernetes
// client are loaded only when the command runs, so other commands start fast.

import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Command } from 'commander';
import { parseControllerFlags, UsageError, type OptionsEnv, type RawControllerFlags } from '../controller/controller-options.js';

const SA_NAMESPACE_FILE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

const collect = (value: string, previous: string[] = []): string[] => [...previous, ...value.split(',').filter(Boolean)];

function processEnv(): OptionsEnv {
  return {
    ...(process.env.POD_NAMESPACE ? { podNamespace: process.env.POD_NAMESPACE } : {}),
    ...(existsSync(SA_NAMESPACE_FILE) ? { serviceAccountNamespace: readFileSync(SA_NAMESPACE_FILE, 'utf8') } : {}),
    fileExists: existsSync,
  };
}

/** `--leader-elect`, `--leader-elect=true|false`: commander hands over true or the string. */
function normaliseFlags(raw: Omit<RawControllerFlags, 'leaderElect'> & { leaderElect?: boolean | string }): RawControllerFlags {
  const le = raw.leaderElect;
  if (typeof le === 'string' && le !== 'true' && le !== 'false') throw new UsageError(`--leader-elect=${le}: must be true or false`);
  return { ...raw, leaderElect: le === true || le === 'true' };
}

async function action(raw: RawControllerFlags, cmd: Command): Promise<void> {
  let config;
  try {
    config = parseControllerFlags(normaliseFlags(raw), processEnv());
  } catch (e) {
    if (e instanceof UsageError) cmd.error(`error: ${e.message}`, { exitCode: 2, code: 'ordinal.usage' });
    throw e;
  }
  const { runController } = await import('../controller/run.js');
  const running = await runController(config, {
    onSignal: (sig, handler) => process.on(sig, handler),
    hostname: hostname(),
    forceExit: (code) => process.exit(code),
    ...(cmd.parent?.version() !== undefined ? { version: cmd.parent.version() as string } : {}),
  });
  process.exit(await running.exited);
}

export function register(program: Command): void {
  program
    .command('controller')
    .description('Reconcile StatefulSets on a real cluster (apps.ordinal.dev/v1 with --target=crd, apps/v1 with --target=native).')
    .option('--kubeconfig <path>', 'kubeconfig file (default: $KUBECONFIG, ~/.kube/config, then the in-cluster service account)')
    .option('--target <target>', 'StatefulSets to manage: crd (apps.ordinal.dev/v1), native (apps/v1) or both', 'crd')
    .option('--namespace <ns>', 'namespace to reconcile; repeatable or comma-separated (default: all)', collect)
    .option('--feature-gates <gates>', 'feature gates, e.g. StatefulSetRecreateStrategy=false,MaxUnavailableStatefulSet=true')
    .option('--concurrent-syncs <n>', 'StatefulSets synced in parallel', '5')
    .option('--leader-elect [bool]', 'run only while holding a coordination.k8s.io Lease (15s lease, 10s renew deadline, 2s retry)')
    .option('--leader-elect-namespace <ns>', 'namespace of the Lease (default: $POD_NAMESPACE, the pod\'s namespace, else default)')
    .option('--leader-elect-id <name>', 'name of the Lease', 'ordinal-controller')
    .option('--metrics-bind-address <addr>', 'address of /metrics, e.g. :8080; 0 disables', ':8080')
    .option('--health-probe-bind-address <addr>', 'address of /healthz and /readyz, e.g. :8081; 0 disables', ':8081')
    .option('--log-format <format>', 'json or text', 'json')
    .option('--log-level <level>', 'trace, debug, info, warn, error or fatal', 'info')
    .option('--kube-api-qps <qps>', 'client-side limit of API requests per second', '20')
    .option('--kube-api-burst <n>', 'API requests allowed back to back', '30')
    .option('--graceful-shutdown-timeout <duration>', 'how long SIGTERM waits for in-flight syncs', '25s')
    .exitOverride((err) => {
      // commander's own usage errors (unknown flag, missing value) exit 2 like ours; help and version exit 0.
      process.exit(err.exitCode === 0 ? 0 : err.code === 'ordinal.usage' ? 2 : err.code.startsWith('commander.') ? 2 : err.exitCode);
    })
    .action(action);
}
