// The dashboard on the simulated cluster for route tests: the in-memory API server, kubelet and controller on
// virtual time (world.ts), the dashboard's parts on the user's client (createDashboard), its server on a free
// loopback port, and raw HTTP requests (node:http, which lets a test set the Host and Origin headers a browser
// would not) made while virtual time runs.

import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { defaultFeatures } from '../../src/api/features.js';
import type { ClusterClient } from '../../src/api/client.js';
import { createDashboard, listen, type Dashboard } from '../../src/cli/dashboard/serve.js';
import { TOKEN_HEADER } from '../../src/cli/dashboard/request-guard.js';
import { driveWithTurns, startWorld, type TestWorld } from './world.js';

export const TOKEN = 'test-token';

export interface DashboardWorld extends TestWorld {
  dashboard: Dashboard;
  port: number;
  close(): Promise<void>;
}

/** Starts the world with `objects`, lets `ready` run on it, then the dashboard over `client` (default: the user's). */
export async function startDashboard(objects: string, opts: { cluster?: string; ready?: (w: TestWorld) => Promise<void>; client?: (w: TestWorld) => ClusterClient } = {}): Promise<DashboardWorld> {
  const w = await startWorld(objects, opts.cluster);
  await opts.ready?.(w);
  const deps = { ...w.deps, client: opts.client?.(w) ?? w.deps.client };
  const dashboard = createDashboard(deps, { namespaces: ['default'], token: TOKEN, features: defaultFeatures(), random: () => 0.5 });
  dashboard.view.start();
  await driveWithTurns(w, dashboard.view.waitForSync());
  const port = await listen(dashboard, { host: '127.0.0.1', port: 0 });
  return { ...w, dashboard, port, close: () => dashboard.close() };
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

export interface Req {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/** One request to the dashboard, with the page's headers unless `headers` replaces them. */
export function send(d: DashboardWorld, req: Req): Promise<Answer> {
  const post = (req.method ?? 'GET') === 'POST';
  const headers = req.headers ?? { host: `127.0.0.1:${d.port}`, ...(post ? { 'content-type': 'application/json', [TOKEN_HEADER]: TOKEN, origin: `http://127.0.0.1:${d.port}` } : {}) };
  const done = new Promise<Answer>((resolve, reject) => {
    const r = httpRequest({ host: '127.0.0.1', port: d.port, method: req.method ?? 'GET', path: req.path, headers }, (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: <T>() => JSON.parse(body) as T }));
    });
    r.on('error', reject);
    r.end(req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : JSON.stringify(req.body));
  });
  return driveWithTurns(d, done);
}

/** POST /api/action with the page's headers. */
export const action = (d: DashboardWorld, body: Record<string, unknown>) => send(d, { method: 'POST', path: '/api/action', body });

/** The events of /api/stream?set=KEY until `until` holds for one of them (or `max` arrived), then the stream is closed. */
export function streamUntil(d: DashboardWorld, key: string, until: (event: { type: string; data: Record<string, unknown> }) => boolean, max = 200): Promise<{ type: string; data: Record<string, unknown> }[]> {
  const events: { type: string; data: Record<string, unknown> }[] = [];
  const done = new Promise<typeof events>((resolve, reject) => {
    const r = httpRequest({ host: '127.0.0.1', port: d.port, path: `/api/stream?set=${encodeURIComponent(key)}`, headers: { host: `127.0.0.1:${d.port}` } }, (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const type = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
          const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? '{}') as Record<string, unknown>;
          events.push({ type, data });
          if (until(events[events.length - 1]!) || events.length >= max) {
            r.destroy();
            resolve(events);
          }
        }
      });
    });
    r.on('error', (e) => (events.length > 0 ? resolve(events) : reject(e)));
    r.end();
  });
  return driveWithTurns(d, done);
}
