// Where requests go and with which credentials: the kubeconfig (./kubeconfig.ts) supplies the server, TLS
// material and auth headers, read again for every request so rotated files are used; exec plugins,
// auth-providers and proxies go through client-node, loaded only for them. We keep keep-alive agents per TLS
// identity: one for requests (at most 64 sockets) and one for watches, which hold a socket each for as long
// as they run. On one HTTP/1.1 pool, 64 open watches (a controller watching five resources in 13
// namespaces) would leave every other request queued forever; client-go multiplexes them over HTTP/2 instead.

import { Agent as HttpAgent, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, type RequestOptions } from 'node:https';
import { createSecureContext } from 'node:tls';
import { applyCredentials, needsClientNode, type KubeConfig } from './kubeconfig.js';
import type { Authenticate } from './client-node-auth.js';

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

/** Concurrent requests (not watches) per client. */
const MAX_REQUEST_SOCKETS = 64;

function tlsIdentity(opts: RequestOptions): string {
  const s = (v: unknown) => (v === undefined ? '' : String(v));
  return [s(opts.ca), s(opts.cert), s(opts.key), s(opts.rejectUnauthorized), s(opts.servername)].join('\u0000');
}

function newAgent(server: string, opts: RequestOptions, maxSockets: number): HttpAgent {
  const keepAlive = { keepAlive: true, maxSockets };
  if (server.startsWith('http:')) return new HttpAgent(keepAlive);
  // One TLS context per identity: without it every new connection parses the CA, certificate and key again.
  const secureContext = createSecureContext({ ca: opts.ca, cert: opts.cert, key: opts.key, pfx: opts.pfx, passphrase: opts.passphrase });
  return new HttpsAgent({
    ...keepAlive,
    secureContext,
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
  const { cluster } = kc;
  const server = cluster.server.replace(/\/+$/, '');
  let authenticate: Promise<Authenticate> | undefined;
  const viaClientNode = needsClientNode(kc);
  const apply = async (opts: RequestOptions) => {
    if (!viaClientNode) return applyCredentials(kc, opts);
    authenticate ??= import('./client-node-auth.js').then((m) => m.clientNodeAuthenticator(kc));
    return (await authenticate)(opts);
  };
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
      await apply(opts);
      let agent = opts.agent as HttpAgent;
      if (cluster.proxyUrl === undefined) {
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
