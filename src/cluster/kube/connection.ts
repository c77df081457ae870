// Where requests go and with which credentials: the kubeconfig (./kubeconfig.ts) supplies the server, TLS
// material and auth headers, read again for every request so rotated files are used; exec plugins,
// auth-providers and proxies go through client-node, loaded only for them. We keep keep-alive agents per TLS
// identity: one for requests (at most 64 sockets) and one for watches, which hold a socket each for as long
// as they run. On one HTTP/1.1 pool, 64 open watches (a controller watching five resources in 13
// namespaces) would leave every other request queued forever; client-go multiplexes them over HTTP/2 instead.

import { Agent as HttpAgent, type ClientRequestArgs, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, type AgentOptions, type RequestOptions } from 'node:https';
import { connect as netConnect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect, createSecureContext, type ConnectionOptions } from 'node:tls';
import { applyCredentials, needsClientNode, type KubeConfig } from './kubeconfig.js';
import type { Authenticate } from './client-node-auth.js';

export interface RequestTarget {
  /** Where the request goes, as http.request takes it (no URL to parse per request). */
  options: { protocol: string; hostname: string; port: string; path: string };
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
  /**
   * Drops every connection at once with a TCP reset, discarding whatever is still queued in a socket, and
   * starts over with new ones: after a lost Lease nothing already sent to a socket may reach the server later
   * (a graceful close, or the process exiting, would still deliver it once a partition heals).
   */
  reset(): void;
}

/** Sockets whose connection is still being set up, with the promise of it being ready (TLS: the handshake done). */
const settingUp = new WeakMap<Duplex, Promise<void>>();

/**
 * Resolves once `socket` can carry a request's bytes at once, or undefined when it already can: a request
 * that is checked at this point is written in the same turn as the check.
 */
export function whenConnected(socket: Duplex): Promise<void> | undefined {
  return settingUp.get(socket);
}

function trackSetup(socket: Duplex, readyEvent: 'connect' | 'secureConnect'): void {
  const ready = new Promise<void>((resolve) => {
    const done = () => {
      settingUp.delete(socket);
      resolve();
    };
    socket.once(readyEvent, done);
    socket.once('close', done);
  });
  settingUp.set(socket, ready);
}

/** The raw TCP sockets under an agent's connections (TLS ones included), so they can be reset. */
type SocketSet = Set<Socket>;

function track(sockets: SocketSet, raw: Socket): Socket {
  sockets.add(raw);
  raw.once('close', () => sockets.delete(raw));
  return raw;
}

/** An HTTP agent whose connections are plain TCP sockets it remembers. */
class TrackingHttpAgent extends HttpAgent {
  constructor(
    opts: ConstructorParameters<typeof HttpAgent>[0],
    private readonly tracked: SocketSet,
  ) {
    super(opts);
  }

  override createConnection(options: ClientRequestArgs): Duplex {
    const raw = track(this.tracked, netConnect({ host: options.host ?? 'localhost', port: Number(options.port ?? 80) }));
    trackSetup(raw, 'connect');
    return raw;
  }
}

/** An HTTPS agent that opens the TCP socket itself and runs TLS over it, so the TCP socket can be reset. */
class TrackingHttpsAgent extends HttpsAgent {
  constructor(
    opts: AgentOptions,
    private readonly tracked: SocketSet,
  ) {
    super(opts);
  }

  override createConnection(options: RequestOptions): Duplex {
    const raw = track(this.tracked, netConnect({ host: options.host ?? 'localhost', port: Number(options.port ?? 443) }));
    const secure = tlsConnect({ ...(options as ConnectionOptions), socket: raw });
    trackSetup(secure, 'secureConnect');
    return secure;
  }
}

/** Concurrent requests (not watches) per client. */
const MAX_REQUEST_SOCKETS = 64;

/** Whether two requests' credentials need the same TLS identity (so the same agents and connections). */
function sameTls(a: RequestOptions, b: RequestOptions): boolean {
  const same = (x: unknown, y: unknown) => (Buffer.isBuffer(x) && Buffer.isBuffer(y) ? x.equals(y) : String(x) === String(y));
  return same(a.ca, b.ca) && same(a.cert, b.cert) && same(a.key, b.key) && a.rejectUnauthorized === b.rejectUnauthorized && a.servername === b.servername;
}

/** Credentials from files are read again for every request (rotated files); inline ones are the same every time. */
function readsFiles(kc: KubeConfig): boolean {
  const { cluster, user } = kc;
  return [cluster.caFile, user?.certFile, user?.keyFile, user?.tokenFile, user?.authProvider?.config?.tokenFile].some((f) => f !== undefined);
}

/** The server URL's parts, computed once (a path prefix included). */
function targetOf(server: string): (path: string) => RequestTarget['options'] {
  const base = new URL(server);
  const hostname = base.hostname.startsWith('[') ? base.hostname.slice(1, -1) : base.hostname;
  const prefix = base.pathname.replace(/\/+$/, '');
  return (path) => ({ protocol: base.protocol, hostname, port: base.port, path: prefix + path });
}

function newAgent(server: string, opts: RequestOptions, maxSockets: number, sockets: SocketSet): HttpAgent {
  const keepAlive = { keepAlive: true, maxSockets };
  if (server.startsWith('http:')) return new TrackingHttpAgent(keepAlive, sockets);
  // One TLS context per identity: without it every new connection parses the CA, certificate and key again.
  const secureContext = createSecureContext({ ca: opts.ca, cert: opts.cert, key: opts.key, pfx: opts.pfx, passphrase: opts.passphrase });
  const agentOpts: AgentOptions = {
    ...keepAlive,
    secureContext,
    ...(opts.rejectUnauthorized !== undefined ? { rejectUnauthorized: opts.rejectUnauthorized } : {}),
    ...(opts.servername !== undefined ? { servername: opts.servername } : {}),
  };
  return new TrackingHttpsAgent(agentOpts, sockets);
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
  const fresh = async (): Promise<RequestOptions> => {
    const opts: RequestOptions = {};
    if (!viaClientNode) applyCredentials(kc, opts);
    else {
      authenticate ??= import('./client-node-auth.js').then((m) => m.clientNodeAuthenticator(kc));
      await (await authenticate)(opts);
    }
    return opts;
  };
  // inline credentials are decoded once, not for every request
  let constant: Promise<{ opts: RequestOptions; headers: OutgoingHttpHeaders }> | undefined;
  const credentials = async (): Promise<{ opts: RequestOptions; headers: OutgoingHttpHeaders }> => {
    if (viaClientNode || readsFiles(kc)) return fresh().then((opts) => ({ opts, headers: authHeaders(opts) }));
    constant ??= fresh().then((opts) => ({ opts, headers: authHeaders(opts) }));
    return constant;
  };
  const where = targetOf(server);
  let cached: { creds: RequestOptions; requests: HttpAgent; streams: HttpAgent } | undefined;
  const sockets: SocketSet = new Set();
  const destroy = () => {
    cached?.requests.destroy();
    cached?.streams.destroy();
    cached = undefined;
  };
  const reset = () => {
    for (const raw of [...sockets]) raw.resetAndDestroy();
    sockets.clear();
    destroy();
  };
  return {
    server,
    async target(path, longRunning = false) {
      const { opts, headers } = await credentials();
      let agent = opts.agent as HttpAgent;
      if (cluster.proxyUrl === undefined) {
        if (cached === undefined || (cached.creds !== opts && !sameTls(cached.creds, opts))) {
          destroy();
          cached = { creds: opts, requests: newAgent(server, opts, MAX_REQUEST_SOCKETS, sockets), streams: newAgent(server, opts, Infinity, sockets) };
        }
        agent = longRunning ? cached.streams : cached.requests;
      }
      return { options: where(path), headers, agent };
    },
    close: destroy,
    reset,
  };
}
