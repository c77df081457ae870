// One HTTP exchange with the API server over node:http(s): `send` buffers the response, `stream` hands
// a watch response over line by line (the API server's JSON watch stream is one event per line).
// Failures to connect or mid-body disconnects surface as TransportError, never as ApiError; its message
// names the request as Go's net/http does (`Get "https://host/path": cause`), which is what kubectl prints.

import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import { whenConnected, type Connection } from './connection.js';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path and query, starting with `/`. */
  path: string;
  body?: string;
  contentType?: string;
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export class TransportError extends Error {
  override name = 'TransportError';
  constructor(
    message: string,
    /** errno-style code, e.g. ECONNREFUSED, ECONNRESET, ETIMEDOUT. */
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

export interface TransportOptions {
  userAgent: string;
  /**
   * How long a request may wait for the server (socket inactivity; 0 = no limit, kubectl's default). For a
   * watch it bounds only the wait for the response headers: the stream itself is quiet between events.
   */
  requestTimeoutMs: number;
}

type NetError = NodeJS.ErrnoException & { address?: string; port?: number; hostname?: string };

/** Node's wording for the usual causes is terse ("connect ECONNREFUSED 127.0.0.1:1"): say it as kubectl does. */
function causeOf(e: NetError | undefined, fallback: string): string {
  const message = e?.message ?? fallback;
  if (e?.code === 'ECONNREFUSED' && e.address !== undefined) return `dial tcp ${e.address}:${e.port ?? ''}: connect: connection refused`;
  if (e?.code === 'ENOTFOUND' && e.hostname !== undefined) return `dial tcp: lookup ${e.hostname}: no such host`;
  // OpenSSL's verification codes (SELF_SIGNED_CERT_IN_CHAIN, CERT_HAS_EXPIRED …) and Node's TLS errors.
  if (e?.code !== undefined && /CERT|^ERR_TLS_|^ERR_SSL_/.test(e.code)) return `tls: failed to verify certificate: ${message}`;
  return message;
}

function toTransportError(err: unknown, what: string): TransportError {
  // Connecting to a name with several addresses fails with an AggregateError whose own message is empty.
  const first: unknown = err instanceof AggregateError && err.errors.length > 0 ? err.errors[0] : err;
  const e = first as NetError | undefined;
  return new TransportError(`${what}: ${causeOf(e, String(err))}`, e?.code);
}

/** `Get "https://server/path"`, Go's url.Error prefix. */
function describe(conn: Connection, req: HttpRequest): string {
  return `${req.method.charAt(0)}${req.method.slice(1).toLowerCase()} "${conn.server}${req.path}"`;
}

function timedOut(ms: number): Error {
  return Object.assign(new Error(`no response from the server within ${ms / 1000}s (request timeout)`), { code: 'ETIMEDOUT' });
}

async function open(conn: Connection, req: HttpRequest, opts: TransportOptions, longRunning = false) {
  const target = await conn.target(req.path, longRunning);
  const headers: OutgoingHttpHeaders = { ...target.headers, accept: 'application/json', 'user-agent': opts.userAgent };
  if (req.body !== undefined) {
    headers['content-type'] = req.contentType ?? 'application/json';
    headers['content-length'] = Buffer.byteLength(req.body);
  }
  const send = target.options.protocol === 'http:' ? httpRequest : httpsRequest;
  return send({ ...target.options, method: req.method, headers, agent: target.agent });
}

function readBody(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
    res.on('aborted', () => reject(Object.assign(new Error('response aborted'), { code: 'ECONNRESET' })));
  });
}

/**
 * A last check before a request's bytes are written, once its socket is connected: an error refuses the
 * request unsent (the promise rejects with that error itself). The check and the write run in one turn, so
 * nothing the process does in between (a pause, a long task) can come between them.
 */
export type SendGuard = () => Error | undefined;

/** Writes the request once its socket is ready, if `guard` allows it then. */
function endWhenReady(r: ClientRequest, body: string | undefined, guard: SendGuard, refuse: (e: Error) => void): void {
  r.once('socket', (socket: Duplex) => {
    const go = () => {
      const refusal = guard();
      if (refusal === undefined) return void r.end(body);
      refuse(refusal);
      r.destroy();
    };
    const ready = whenConnected(socket);
    if (ready === undefined) go();
    else void ready.then(go);
  });
}

/** Sends one request and buffers the whole response, whatever its status. */
export async function send(conn: Connection, req: HttpRequest, opts: TransportOptions, guard?: SendGuard): Promise<HttpResponse> {
  const what = describe(conn, req);
  const r = await open(conn, req, opts).catch((e: unknown) => Promise.reject(toTransportError(e, what)));
  return new Promise<HttpResponse>((resolve, reject) => {
    let refused: Error | undefined;
    if (opts.requestTimeoutMs > 0) r.setTimeout(opts.requestTimeoutMs, () => r.destroy(timedOut(opts.requestTimeoutMs)));
    r.on('error', (e) => reject(refused ?? toTransportError(e, what)));
    r.on('response', (res) => {
      readBody(res).then(
        (body) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }),
        (e: unknown) => reject(toTransportError(e, what)),
      );
    });
    if (guard === undefined) return void r.end(req.body);
    endWhenReady(r, req.body, guard, (e) => {
      refused = e;
      reject(e);
    });
  });
}

/** How a stream ended: the server closed it cleanly, the connection broke, or it answered non-200. */
export type StreamEnd =
  | { kind: 'closed' }
  | { kind: 'dropped'; error: TransportError }
  | { kind: 'rejected'; response: HttpResponse };

export interface StreamSink {
  onLine(line: string): void;
  /** Called exactly once, unless the stream was aborted by its owner. */
  onEnd(end: StreamEnd): void;
}

export interface StreamHandle {
  abort(): void;
}

function pipeLines(res: IncomingMessage, onLine: (line: string) => void, finish: (end: StreamEnd) => void): void {
  let buffered = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    buffered += chunk;
    let nl = buffered.indexOf('\n');
    while (nl >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (line) onLine(line);
      nl = buffered.indexOf('\n');
    }
  });
  res.on('end', () => {
    if (buffered.trim()) onLine(buffered.trim());
    finish({ kind: 'closed' });
  });
}

/**
 * Opens a streaming GET. A 200 response is split into lines for `sink.onLine`; any other status is
 * buffered and reported as `rejected`. After `abort()` the sink hears nothing more.
 */
export function stream(conn: Connection, req: HttpRequest, sink: StreamSink, opts: TransportOptions): StreamHandle {
  const what = describe(conn, req);
  let aborted = false;
  let ended = false;
  let destroy: (() => void) | undefined;
  const finish = (end: StreamEnd) => {
    if (aborted || ended) return;
    ended = true;
    sink.onEnd(end);
  };
  const dropped = (e: unknown) => finish({ kind: 'dropped', error: toTransportError(e, what) });
  open(conn, req, opts, true).then((r) => {
    // The error listener goes first: destroying a request that has not connected yet emits 'error'
    // ("socket hang up"), which would be uncaught without it.
    r.on('error', dropped);
    destroy = () => r.destroy();
    if (aborted) return destroy();
    if (opts.requestTimeoutMs > 0) r.setTimeout(opts.requestTimeoutMs, () => r.destroy(timedOut(opts.requestTimeoutMs)));
    r.on('response', (res) => {
      r.setTimeout(0);
      res.on('error', dropped);
      res.on('aborted', () => dropped(Object.assign(new Error('watch stream aborted'), { code: 'ECONNRESET' })));
      if (res.statusCode === 200) {
        return pipeLines(res, (line) => {
          if (!aborted) sink.onLine(line);
        }, finish);
      }
      readBody(res).then(
        (body) => finish({ kind: 'rejected', response: { status: res.statusCode ?? 0, headers: res.headers, body } }),
        dropped,
      );
    });
    r.end();
  }, dropped);
  return {
    abort() {
      aborted = true;
      destroy?.();
    },
  };
}
