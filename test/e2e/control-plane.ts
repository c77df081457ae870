// The real control plane for end-to-end tests: etcd + kube-apiserver started by
// scripts/control-plane/up.sh (or by ci-setup.sh in CI), found through ORDINAL_E2E_KUBECONFIG.
// Under CI a missing control plane is a red test, never a silent skip.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request as httpsRequest, Agent } from 'node:https';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';
import { parse as parseYaml } from 'yaml';

export interface ControlPlane {
  /** Admin kubeconfig (client certificate in O=system:masters). */
  kubeconfigPath: string;
  /** The directory up.sh wrote (pki/, logs/, pid files). */
  dir: string;
  /** Where kube-apiserver, kube-controller-manager and etcd are. */
  binDir: string;
}

const SCRIPTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../scripts/control-plane');
const HOW_TO =
  'run `scripts/control-plane/up.sh /tmp/ordinal-e2e && source /tmp/ordinal-e2e/env` ' +
  '(the first run builds kube-apiserver from source, which takes a while)';

/** Reads the control plane from the environment, or returns why it cannot (without how to start one). */
export function controlPlaneFromEnv(env: NodeJS.ProcessEnv = process.env): ControlPlane | { missing: string } {
  const kubeconfigPath = env.ORDINAL_E2E_KUBECONFIG;
  if (!kubeconfigPath) return { missing: 'ORDINAL_E2E_KUBECONFIG is not set' };
  if (!existsSync(kubeconfigPath)) return { missing: `ORDINAL_E2E_KUBECONFIG=${kubeconfigPath} does not exist` };
  const dir = env.ORDINAL_E2E_DIR ?? dirname(kubeconfigPath);
  const binDir = env.ORDINAL_K8S_BIN ?? binDirFromEnvFile(join(dir, 'env'));
  if (!binDir) return { missing: `ORDINAL_K8S_BIN is not set and ${dir}/env names no binaries` };
  return { kubeconfigPath, dir, binDir };
}

function binDirFromEnvFile(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  return /ORDINAL_K8S_BIN='([^']*)'/.exec(readFileSync(path, 'utf8'))?.[1];
}

/**
 * The running control plane, or: under CI (`process.env.CI`) throws so the test fails; elsewhere skips
 * the test with a short reason (scripts/skip-summary-reporter.mjs prints each reason once after the run)
 * and returns undefined.
 */
export function requireControlPlane(t: TestContext): ControlPlane | undefined {
  const found = controlPlaneFromEnv();
  if ('kubeconfigPath' in found) return found;
  if (process.env.CI) throw new Error(`CI=${process.env.CI} but there is no control plane: ${found.missing}; ${HOW_TO}`);
  t.skip(`no control plane (${found.missing}; scripts/control-plane/up.sh starts one)`);
  return undefined;
}

function runScript(args: string[], script = 'kcm.sh', env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((done, fail) => {
    execFile(join(SCRIPTS, script), args, { timeout: 120_000, env }, (err, stdout, stderr) => {
      if (err) fail(new Error(`${script} ${args.join(' ')} failed: ${err.message}\n${stderr}`));
      else done(stdout);
    });
  });
}

/**
 * An etcd + kube-apiserver of a caller's own (up.sh in a fresh temporary directory, the binaries in
 * `binDir`), e.g. with an alpha feature gate the shared one must keep off (`--feature-gates=...`) or with an
 * audit log (`--audit`). `stop` runs down.sh --purge.
 */
export async function startControlPlane(binDir: string, upArgs: string[]): Promise<ControlPlane & { stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'ordinal-cp-'));
  const stop = () => runScript([dir, '--purge'], 'down.sh').then(() => undefined);
  try {
    await runScript([dir, ...upArgs], 'up.sh', { ...process.env, ORDINAL_K8S_BIN: binDir });
  } catch (e) {
    await stop().catch(() => undefined);
    throw e;
  }
  return { kubeconfigPath: join(dir, 'admin.kubeconfig'), dir, binDir, stop };
}

export interface ControllerManager {
  /** kcm.sh's instance name (its pid file, port file and log in the control-plane dir). */
  instance: string;
  /** kube-controller-manager's secure port on 127.0.0.1. */
  port: number;
  stop(): Promise<void>;
}

let instances = 0;

/**
 * Starts a kube-controller-manager with exactly these controllers (upstream names or aliases, e.g.
 * `garbage-collector-controller`, `namespace`, `statefulset`) and waits for its /healthz. Each call gets
 * its own instance, so test files running side by side do not collide; they must not run the same
 * controller, and never `statefulset` while Ordinal runs with --target=native.
 */
export async function startControllerManager(
  controllers: string[],
  options: { controlPlane?: ControlPlane; args?: string[] } = {},
): Promise<ControllerManager> {
  const cp = options.controlPlane ?? mustFromEnv();
  const instance = `p${process.pid}-${++instances}`;
  const flags = [`--instance=${instance}`, `--controllers=${controllers.join(',')}`, ...(options.args ?? [])];
  const out = await runScript([cp.dir, 'start', ...flags]);
  const port = Number(out.trim().split('\n').pop());
  return { instance, port, stop: () => stopControllerManager(cp, instance) };
}

/**
 * Stops one kube-controller-manager instance of the control plane in `cp.dir`, or every instance there
 * when `instance` is omitted. No error when nothing runs.
 */
export async function stopControllerManager(cp: ControlPlane = mustFromEnv(), instance?: string): Promise<void> {
  await runScript([cp.dir, 'stop', instance ? `--instance=${instance}` : '--all']);
}

function mustFromEnv(): ControlPlane {
  const found = controlPlaneFromEnv();
  if ('kubeconfigPath' in found) return found;
  throw new Error(`no control plane: ${found.missing}; ${HOW_TO}`);
}

export interface KubeResponse<T = unknown> {
  status: number;
  body: T;
}

export type KubeRequest = <T = unknown>(method: string, path: string, body?: unknown) => Promise<KubeResponse<T>>;

interface NamedEntry<T> {
  name: string;
  [key: string]: T | string;
}

function pick<T>(list: NamedEntry<T>[] | undefined, name: string, key: string): T {
  const hit = list?.find((e) => e.name === name)?.[key];
  if (hit === undefined || typeof hit === 'string') throw new Error(`kubeconfig has no ${key} named ${name}`);
  return hit;
}

function credential(entry: Record<string, string | undefined>, field: string): Buffer | undefined {
  const data = entry[`${field}-data`];
  if (data) return Buffer.from(data, 'base64');
  const file = entry[field];
  return file ? readFileSync(file) : undefined;
}

/**
 * A minimal JSON client for the kubeconfig's current context (client certificates or a bearer token).
 * `options.token` replaces the kubeconfig's credentials, e.g. with a ServiceAccount token.
 */
export function kubeRequester(kubeconfigPath: string, options: { token?: string } = {}): KubeRequest {
  type Entries = NamedEntry<Record<string, string | undefined>>[];
  const kc = parseYaml(readFileSync(kubeconfigPath, 'utf8')) as {
    'current-context': string;
    contexts: Entries;
    clusters: Entries;
    users: Entries;
  };
  const context = pick(kc.contexts, kc['current-context'], 'context');
  const cluster = pick(kc.clusters, context.cluster ?? '', 'cluster');
  const user = options.token ? { token: options.token } : pick(kc.users, context.user ?? '', 'user');
  const agent = new Agent({
    ca: credential(cluster, 'certificate-authority'),
    cert: credential(user, 'client-certificate'),
    key: credential(user, 'client-key'),
    keepAlive: true,
  });
  const server = new URL(cluster.server ?? '');
  return (method, path, body) =>
    new Promise((done, fail) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers: Record<string, string> = { accept: 'application/json' };
      if (payload !== undefined) headers['content-type'] = 'application/json';
      if (user.token) headers.authorization = `Bearer ${user.token}`;
      const req = httpsRequest(new URL(path, server), { method, agent, headers, timeout: 30_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            done({ status: res.statusCode ?? 0, body: (text ? JSON.parse(text) : undefined) as never });
          } catch {
            done({ status: res.statusCode ?? 0, body: text as never });
          }
        });
      });
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timed out`)));
      req.on('error', fail);
      req.end(payload);
    });
}
