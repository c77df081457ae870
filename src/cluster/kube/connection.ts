// Where requests go and with which credentials: a client-node `KubeConfig` (file, $KUBECONFIG,
// ~/.kube/config or in-cluster service account) supplies the server, TLS material and auth headers
// (tokens, exec plugins and token files are refreshed by client-node on every call). We keep keep-alive
// agents per TLS identity, since client-node builds a fresh agent for every request: one for requests
// (at most 64 sockets) and one for watches, which hold a socket each for as long as they run. On one
// HTTP/1.1 pool, 64 open watches (a controller watching five resources in 13 namespaces) would leave
// every other request queued forever; client-go multiplexes them over HTTP/2 instead.

import { KubeConfig } from '@kubernetes/client-node';
import { Agent as HttpAgent, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, type RequestOptions } from 'node:https';

export interface RequestTarget {
  url: URL;
  headers: OutgoingHttpHeaders;
  agent: HttpAgent;
}

export interface Connection {
  /** The API server's base URL (may carry a path prefix, e.g. behind a proxy). */
  readonly server: string;
  /**
   * Resolves credentials for one request to `path` (path and query, starting with `/`); `longRunning`
   * (a watch) takes a socket from the unbounded pool of its own.
   */
  target(path: string, longRunning?: boolean): Promise<RequestTarget>;
  /** Closes idle keep-alive sockets. */
  close(): void;
}

/**
 * Loads the kubeconfig at `path`, or the default chain ($KUBECONFIG, ~/.kube/config, in-cluster), with
 * `context` made current when given. Throws when the file, the context or its cluster is unusable.
 */
export function loadKubeConfig(path?: string, context?: string): KubeConfig {
  const kc = new KubeConfig();
  if (path) kc.loadFromFile(path);
  else kc.loadFromDefault();
  if (context !== undefined) {
    if (kc.getContextObject(context) === null) throw new Error(`context "${context}" does not exist in the kubeconfig`);
    kc.setCurrentContext(context);
  }
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error(`kubeconfig${path ? ` ${path}` : ''} has no current cluster (set current-context)`);
  return kc;
}

/** Concurrent requests (not watches) per client. */
const MAX_REQUEST_SOCKETS = 64;

function tlsIdentity(opts: RequestOptions): string {
  const s = (v: unknown) => (v === undefined ? '' : String(v));
  return [s(opts.ca), s(opts.cert), s(opts.key), s(opts.rejectUnauthorized), s(opts.servername)].join('\u0000');
}

function newAgent(server: string, opts: RequestOptions, maxSockets: number): HttpAgent {
  const keepAlive = { keepAlive: true, maxSockets };
  if (server.startsWith('http:')) return new HttpAgent(keepAlive);
  const tls = { ca: opts.ca, cert: opts.cert, key: opts.key, pfx: opts.pfx, passphrase: opts.passphrase };
  return new HttpsAgent({
    ...keepAlive,
    ...tls,
    ...(opts.rejectUnauthorized !== undefined ? { rejectUnauthorized: opts.rejectUnauthorized } : {}),
    ...(opts.servername !== undefined ? { servername: opts.servername } : {}),
  });
}

function authHeaders(opts: RequestOptions): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { ...(opts.headers as OutgoingHttpHeaders | undefined) };
  if (opts.auth) headers.authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
  return headers;
}

export function createConnection(kc: KubeConfig): Connection {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster');
  const server = cluster.server.replace(/\/+$/, '');
  let cached: { identity: string; requests: HttpAgent; streams: HttpAgent } | undefined;
  const destroy = () => {
    cached?.requests.destroy();
    cached?.streams.destroy();
    cached = undefined;
  };
  return {
    server,
    async target(path, longRunning = false) {
      const opts: RequestOptions = {};
      await kc.applyToHTTPSOptions(opts);
      let agent = opts.agent as HttpAgent;
      if (!cluster.proxyUrl) {
        const identity = tlsIdentity(opts);
        if (cached?.identity !== identity) {
          destroy();
          cached = { identity, requests: newAgent(server, opts, MAX_REQUEST_SOCKETS), streams: newAgent(server, opts, Infinity) };
        }
        agent = longRunning ? cached.streams : cached.requests;
      }
      return { url: new URL(server + path), headers: authHeaders(opts), agent };
    },
    close: destroy,
  };
}
