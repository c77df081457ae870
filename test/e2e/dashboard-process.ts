// `ordinal dashboard` as a user runs it (`node bin/ordinal.js dashboard --address 127.0.0.1:0 …`), its URL read
// from the line it prints, and a kubeconfig for a user who may only read (a ServiceAccount token minted with
// the TokenRequest API, bound to a Role of get/list/watch): what the dashboard's refused actions are tested with.

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml, stringify } from 'yaml';
import { kubeRequester } from './control-plane.js';
import { withTimeout } from './wait.js';

const BIN = fileURLToPath(new URL('../../bin/ordinal.js', import.meta.url));

export interface DashboardProcess {
  url: string;
  /** Everything it printed so far. */
  output(): string;
  /** SIGTERM; resolves with its exit code. */
  stop(): Promise<number | null>;
}

/** Starts the dashboard on a free loopback port for `namespace`; resolves once it prints its URL. */
export async function startDashboardProcess(kubeconfig: string, namespace: string): Promise<DashboardProcess> {
  const child: ChildProcess = spawn(process.execPath, [BIN, 'dashboard', '--kubeconfig', kubeconfig, '-n', namespace, '--address', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    const take = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = /: (http:\/\/127\.0\.0\.1:\d+\/) \(Ctrl-C stops it\)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    void exited.then((code) => reject(new Error(`dashboard exited (${code}) before serving:\n${out}`)));
  });
  return {
    url: await withTimeout('the dashboard to print its URL', 60_000, url).catch((e: unknown) => {
      child.kill('SIGKILL');
      throw e;
    }),
    output: () => out,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A ServiceAccount that may get, list and watch what the dashboard reads in `namespace`, and its kubeconfig in `dir`. */
export async function readOnlyKubeconfig(adminKubeconfig: string, namespace: string, dir: string): Promise<string> {
  const admin = kubeRequester(adminKubeconfig);
  const must = async (method: string, path: string, body: unknown) => {
    const r = await admin<{ status?: { token?: string } }>(method, path, body);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const read = ['get', 'list', 'watch'];
  await must('POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, { metadata: { name: 'reader' } });
  await must('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/roles`, {
    metadata: { name: 'reader' },
    rules: [
      { apiGroups: ['apps', 'apps.ordinal.dev'], resources: ['statefulsets', 'controllerrevisions'], verbs: read },
      { apiGroups: [''], resources: ['pods', 'events', 'persistentvolumeclaims'], verbs: read },
    ],
  });
  await must('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings`, {
    metadata: { name: 'reader' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
    subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace }],
  });
  const minted = await must('POST', `/api/v1/namespaces/${namespace}/serviceaccounts/reader/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } });
  const kc = parseYaml(readFileSync(adminKubeconfig, 'utf8')) as { clusters: { name: string }[] };
  const cluster = kc.clusters[0]?.name ?? '';
  const path = join(dir, 'reader.kubeconfig');
  writeFileSync(
    path,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: kc.clusters,
      users: [{ name: 'reader', user: { token: minted.status?.token ?? '' } }],
      contexts: [{ name: 'reader', context: { cluster, user: 'reader', namespace } }],
      'current-context': 'reader',
    }),
  );
  return path;
}
