// One HTTP exchange with the API server over node:http(s): `send` buffers the response, `stream` hands
// a watch response over line by line (the API server's JSON watch stream is one event per line).
// Failures to connect or mid-body disconnects surface as TransportError, never as ApiError.

import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Connection } from './connection.js';

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
  /** Socket inactivity limit for non-watch requests (the API server's own limit is 60 s). */
  requestTimeoutMs: number;
}

function toTransportError(err: unknown, what: string): TransportError {
  const e = err as NodeJS.ErrnoException;
  return new TransportError(`${what}: ${e?.message ?? String(err)}`, e?.code);
}

async function open(conn: Connection, req: HttpRequest, opts: TransportOptions) {
  const target = await conn.target(req.path);
  const headers: OutgoingHttpHeaders = { ...target.headers, accept: 'application/json', 'user-agent': opts.userAgent };
  if (req.body !== undefined) {
    headers['content-type'] = req.contentType ?? 'application/json';
    headers['content-length'] = Buffer.byteLength(req.body);
  }
  const send = target.url.protocol === 'http:' ? httpRequest : httpsRequest;
  return send(target.url, { method: req.method, headers, agent: target.agent });
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

/** Sends one request and buffers the whole response, whatever its status. */
export async function send(conn: Connection, req: HttpRequest, opts: TransportOptions): Promise<HttpResponse> {
  const what = `${req.method} ${req.path}`;
  const r = await open(conn, req, opts).catch((e: unknown) => Promise.reject(toTransportError(e, what)));
  return new Promise<HttpResponse>((resolve, reject) => {
    r.setTimeout(opts.requestTimeoutMs, () => r.destroy(Object.assign(new Error('request timed out'), { code: 'ETIMEDOUT' })));
    r.on('error', (e) => reject(toTransportError(e, what)));
    r.on('response', (res) => {
      readBody(res).then(
        (body) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }),
        (e: unknown) => reject(toTransportError(e, what)),
      );
    });
    r.end(req.body);
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
  const what = `${req.method} ${req.path}`;
  let aborted = false;
  let ended = false;
  let destroy: (() => void) | undefined;
  const finish = (end: StreamEnd) => {
    if (aborted || ended) return;
    ended = true;
    sink.onEnd(end);
  };
  const dropped = (e: unknown) => finish({ kind: 'dropped', error: toTransportError(e, what) });
  open(conn, req, opts).then((r) => {
    // The error listener goes first: destroying a request that has not connected yet emits 'error'
    // ("socket hang up"), which would be uncaught without it.
    r.on('error', dropped);
    destroy = () => r.destroy();
    if (aborted) return destroy();
    r.on('response', (res) => {
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
