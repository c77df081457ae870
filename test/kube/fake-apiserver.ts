// A local node:http server that plays the Kubernetes API for the adapter's tests: each test installs a
// handler, and every request is recorded (method, path, query, headers, body). It also writes a kubeconfig
// pointing at itself, so tests load it exactly as production does.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: RecordedRequest, res: ServerResponse) => void;

export interface FakeApiServer {
  url: string;
  kubeconfig: string;
  requests: RecordedRequest[];
  /** How each client connection ended: `end` (a clean close) or an error code such as `ECONNRESET` (a TCP reset). */
  connectionEnds: string[];
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export const TOKEN = 'test-token-123';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export function sendStatus(res: ServerResponse, code: number, reason: string, message: string, extra: object = {}, headers: Record<string, string> = {}): void {
  sendJson(res, code, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message, ...extra }, headers);
}

/** Starts a watch response: 200 with chunked JSON lines; returns a writer for events. */
export function openWatch(res: ServerResponse): (event: unknown) => void {
  res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
  res.flushHeaders();
  return (event) => res.write(JSON.stringify(event) + '\n');
}

export async function startFakeApiServer(): Promise<FakeApiServer> {
  let handler: Handler = (_req, res) => sendStatus(res, 404, 'NotFound', 'no handler');
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const rec = { method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString() };
      requests.push(rec);
      handler(rec, res);
    });
  });
  const connectionEnds: string[] = [];
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('end', () => connectionEnds.push('end'));
    s.on('error', (e: NodeJS.ErrnoException) => connectionEnds.push(e.code ?? e.message));
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), 'ordinal-kube-test-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigYaml(url));
  return {
    url,
    kubeconfig,
    requests,
    connectionEnds,
    handle: (h) => {
      handler = h;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function kubeconfigYaml(server: string): string {
  return `apiVersion: v1
kind: Config
clusters:
- name: fake
  cluster:
    server: ${server}
    insecure-skip-tls-verify: true
users:
- name: tester
  user:
    token: ${TOKEN}
contexts:
- name: fake
  context: {cluster: fake, user: tester}
current-context: fake
`;
}
