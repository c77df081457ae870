// The kubeconfig as kubectl finds it: `--kubeconfig`, else every file in $KUBECONFIG merged (the first to set
// a name wins), else ~/.kube/config, else the pod's service account (in-cluster), else http://localhost:8080.
// We read it ourselves rather than through @kubernetes/client-node's KubeConfig, whose module loads the whole
// generated API (about 70 MB of resident memory, more than the controller's own working set). Users that
// authenticate with an exec plugin or an auth-provider, and clusters reached through a proxy-url, are handed
// to client-node (./client-node-auth.ts), loaded only then. The model's field names are client-node's, so
// that hand-over is a copy.

import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { isIPv6 } from 'node:net';
import type { OutgoingHttpHeaders } from 'node:http';
import type { RequestOptions } from 'node:https';
import { loadYamlDocuments } from '../../api/yaml-loader.js';

export interface KubeConfigCluster {
  name: string;
  server: string;
  caData?: string;
  caFile?: string;
  skipTLSVerify: boolean;
  tlsServerName?: string;
  proxyUrl?: string;
}

export interface KubeConfigUser {
  name: string;
  token?: string;
  /** Read again on every request, so a rotated (projected) token is picked up. */
  tokenFile?: string;
  certData?: string;
  certFile?: string;
  keyData?: string;
  keyFile?: string;
  username?: string;
  password?: string;
  impersonateUser?: string;
  exec?: unknown;
  authProvider?: { name?: string; config?: Record<string, string> };
}

export interface KubeConfigContext {
  name: string;
  cluster: string;
  user?: string;
  namespace?: string;
}

export interface KubeConfigData {
  clusters: KubeConfigCluster[];
  users: KubeConfigUser[];
  contexts: KubeConfigContext[];
  currentContext: string;
}

/** The kubeconfig with one context chosen: what a connection needs. */
export interface KubeConfig {
  readonly data: KubeConfigData;
  readonly context: KubeConfigContext;
  readonly cluster: KubeConfigCluster;
  readonly user: KubeConfigUser | undefined;
}

/** The context asked for (or its cluster) is not in the kubeconfig; the file itself was read. */
export class UnknownContextError extends Error {
  override name = 'UnknownContextError';
}

const SERVICE_ACCOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const absolute = (root: string, file: string | undefined) => (file === undefined || isAbsolute(file) ? file : join(root, file));

/** Entries of a named list (`clusters`, `users`, `contexts`): each must have a name and its inner object. */
function entries(doc: Obj, list: string, inner: string, required: boolean): Array<{ name: string; body: Obj }> {
  const items = doc[list];
  if (items === undefined || items === null) return [];
  if (!Array.isArray(items)) throw new Error(`${list} must be a list`);
  return items.map((item: unknown, i) => {
    const name = isObj(item) ? str(item.name) : undefined;
    if (name === undefined) throw new Error(`${list}[${i}].name is missing`);
    const body = (item as Obj)[inner];
    if (body !== undefined && body !== null && !isObj(body)) throw new Error(`${list}[${i}].${inner} must be an object`);
    if (required && !isObj(body)) throw new Error(`${list}[${i}].${inner} is missing`);
    return { name, body: (body as Obj | undefined) ?? {} };
  });
}

/** Parses one kubeconfig file; relative certificate and token paths are relative to the file, as in kubectl. */
export function parseKubeConfig(text: string, file: string): KubeConfigData {
  const doc = loadYamlDocuments(text)[0] ?? {};
  if (!isObj(doc)) throw new Error(`${file} is not a kubeconfig (expected a mapping)`);
  const root = dirname(file);
  const clusters = entries(doc, 'clusters', 'cluster', true).map(({ name, body }, i): KubeConfigCluster => {
    const server = str(body.server);
    if (server === undefined) throw new Error(`clusters[${i}].cluster.server is missing`);
    return {
      name,
      server: server.replace(/\/$/, ''),
      ...opt('caData', str(body['certificate-authority-data'])),
      ...opt('caFile', absolute(root, str(body['certificate-authority']))),
      skipTLSVerify: body['insecure-skip-tls-verify'] === true,
      ...opt('tlsServerName', str(body['tls-server-name'])),
      ...opt('proxyUrl', str(body['proxy-url'])),
    };
  });
  const users = entries(doc, 'users', 'user', false).map(({ name, body }): KubeConfigUser => ({
    name,
    ...opt('token', str(body.token)),
    ...opt('tokenFile', absolute(root, str(body.tokenFile) ?? str(body['token-file']))),
    ...opt('certData', str(body['client-certificate-data'])),
    ...opt('certFile', absolute(root, str(body['client-certificate']))),
    ...opt('keyData', str(body['client-key-data'])),
    ...opt('keyFile', absolute(root, str(body['client-key']))),
    ...opt('username', str(body.username)),
    ...opt('password', str(body.password)),
    ...opt('impersonateUser', str(body.as)),
    ...opt('exec', isObj(body.exec) ? body.exec : undefined),
    ...opt('authProvider', isObj(body['auth-provider']) ? (body['auth-provider'] as KubeConfigUser['authProvider']) : undefined),
  }));
  const contexts = entries(doc, 'contexts', 'context', true).map(({ name, body }, i): KubeConfigContext => {
    const cluster = str(body.cluster);
    if (cluster === undefined) throw new Error(`contexts[${i}].context.cluster is missing`);
    return { name, cluster, ...opt('user', str(body.user)), ...opt('namespace', str(body.namespace)) };
  });
  return { clusters, users, contexts, currentContext: str(doc['current-context']) ?? '' };
}

function opt<K extends string, V>(key: K, value: V | undefined): { [k in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [k in K]?: V };
}

function readFile(file: string): KubeConfigData {
  return parseKubeConfig(readFileSync(file, 'utf8'), file);
}

/** kubectl's merge of $KUBECONFIG: the first file to define a name (or the current context) wins. */
function merge(files: KubeConfigData[]): KubeConfigData {
  const firstByName = <T extends { name: string }>(lists: T[][]): T[] => {
    const seen = new Map<string, T>();
    for (const item of lists.flat()) if (!seen.has(item.name)) seen.set(item.name, item);
    return [...seen.values()];
  };
  return {
    clusters: firstByName(files.map((f) => f.clusters)),
    users: firstByName(files.map((f) => f.users)),
    contexts: firstByName(files.map((f) => f.contexts)),
    currentContext: files.find((f) => f.currentContext !== '')?.currentContext ?? '',
  };
}

/** The pod's own service account, as client-go's InClusterConfig. */
function inCluster(): KubeConfigData {
  const host = process.env.KUBERNETES_SERVICE_HOST ?? '';
  const port = process.env.KUBERNETES_SERVICE_PORT ?? '';
  const namespaceFile = `${SERVICE_ACCOUNT}/namespace`;
  const namespace = existsSync(namespaceFile) ? readFileSync(namespaceFile, 'utf8').trim() : undefined;
  return {
    clusters: [{ name: 'inCluster', server: `https://${isIPv6(host) ? `[${host}]` : host}:${port}`, caFile: `${SERVICE_ACCOUNT}/ca.crt`, skipTLSVerify: false }],
    users: [{ name: 'inClusterUser', tokenFile: `${SERVICE_ACCOUNT}/token` }],
    contexts: [{ name: 'inClusterContext', cluster: 'inCluster', user: 'inClusterUser', ...opt('namespace', namespace) }],
    currentContext: 'inClusterContext',
  };
}

function loadDefault(): KubeConfigData {
  const files = (process.env.KUBECONFIG ?? '').split(delimiter).filter((f) => f !== '');
  if (files.length > 0) return merge(files.map(readFile));
  const home = join(homedir(), '.kube', 'config');
  if (existsSync(home)) return readFile(home);
  if (existsSync(`${SERVICE_ACCOUNT}/token`) && process.env.KUBERNETES_SERVICE_HOST) return inCluster();
  return {
    clusters: [{ name: 'cluster', server: 'http://localhost:8080', skipTLSVerify: false }],
    users: [{ name: 'user' }],
    contexts: [{ name: 'loaded-context', cluster: 'cluster', user: 'user' }],
    currentContext: 'loaded-context',
  };
}

/**
 * Loads the kubeconfig at `path`, or the default chain, with `context` (else its current-context) chosen.
 * Throws when a file is unreadable or malformed, or the context or its cluster does not exist.
 */
export function loadKubeConfig(path?: string, context?: string): KubeConfig {
  const data = path ? readFile(path) : loadDefault();
  const name = context ?? data.currentContext;
  const ctx = data.contexts.find((c) => c.name === name);
  if (ctx === undefined) {
    if (context !== undefined) throw new UnknownContextError(`context "${context}" does not exist in the kubeconfig`);
    throw new Error(`kubeconfig${path ? ` ${path}` : ''} has no current cluster (set current-context)`);
  }
  const cluster = data.clusters.find((c) => c.name === ctx.cluster);
  if (cluster === undefined) throw new UnknownContextError(`context "${ctx.name}" names no known cluster ("${ctx.cluster}")`);
  const user = ctx.user === undefined ? undefined : data.users.find((u) => u.name === ctx.user);
  return { data, context: ctx, cluster, user };
}

const fileOrData = (file: string | undefined, data: string | undefined): Buffer | undefined =>
  file !== undefined ? readFileSync(file) : data !== undefined ? Buffer.from(data, 'base64') : undefined;

/** Whether client-node must authenticate this user or reach this cluster (exec, auth-provider, proxy-url). */
export function needsClientNode(kc: KubeConfig): boolean {
  const provider = kc.user?.authProvider;
  const tokenFileProvider = provider?.name === 'tokenFile' && provider.config?.tokenFile !== undefined;
  return kc.cluster.proxyUrl !== undefined || kc.user?.exec !== undefined || (provider !== undefined && !tokenFileProvider);
}

/**
 * TLS material and auth headers for one request. Files are read on every call, as client-node and client-go
 * do, so rotated certificates and tokens are used as soon as they are written.
 */
export function applyCredentials(kc: KubeConfig, opts: RequestOptions): void {
  const { cluster, user } = kc;
  if (cluster.skipTLSVerify) opts.rejectUnauthorized = false;
  if (cluster.tlsServerName !== undefined) opts.servername = cluster.tlsServerName;
  const ca = fileOrData(cluster.caFile, cluster.caData);
  if (ca) opts.ca = ca;
  if (user === undefined) return;
  const cert = fileOrData(user.certFile, user.certData);
  if (cert) opts.cert = cert;
  const key = fileOrData(user.keyFile, user.keyData);
  if (key) opts.key = key;
  const headers: OutgoingHttpHeaders = { ...(opts.headers as OutgoingHttpHeaders | undefined) };
  if (user.impersonateUser !== undefined) headers['impersonate-user'] = user.impersonateUser;
  const tokenFile = user.tokenFile ?? user.authProvider?.config?.tokenFile;
  const token = user.token ?? (tokenFile !== undefined ? readFileSync(tokenFile, 'utf8').trim() : undefined);
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (user.username !== undefined) opts.auth = `${user.username}:${user.password ?? ''}`;
  opts.headers = headers;
}
