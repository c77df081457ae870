// Probe and scrape endpoints: `/healthz` (liveness), `/readyz` (readiness) and `/metrics`. Each server
// serves whatever it is given, so metrics can be bound to a different address than the probes.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface HttpEndpointsOptions {
  port: number;
  /** Default 0.0.0.0 (all interfaces), as a pod needs for kubelet probes. */
  host?: string;
  /** Liveness; `/healthz` is served when given. */
  healthz?: () => boolean;
  /** Readiness (e.g. caches synced); `/readyz` is served when given. */
  readyz?: () => boolean;
  /** `/metrics` is served from this registry when given. */
  registry?: Registry;
}

export interface RunningServer {
  /** The bound port (useful with port 0). */
  port: number;
  close(): Promise<void>;
}

function probe(res: ServerResponse, ok: boolean): void {
  res.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(ok ? 'ok' : 'not ok');
}

async function handle(opts: HttpEndpointsOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
  } else if (path === '/healthz' && opts.healthz) {
    probe(res, opts.healthz());
  } else if (path === '/readyz' && opts.readyz) {
    probe(res, opts.readyz());
  } else if (path === '/metrics' && opts.registry) {
    const body = await opts.registry.metrics();
    res.writeHead(200, { 'content-type': opts.registry.contentType }).end(body);
  } else {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
  }
}

/** Starts an HTTP server for the endpoints given; resolves once it listens. */
export function startHttpEndpoints(opts: HttpEndpointsOptions): Promise<RunningServer> {
  const server: Server = createServer((req, res) => {
    handle(opts, req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(String(err));
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections?.();
          }),
      });
    });
  });
}

/** `/healthz` and `/readyz` only. */
export function startHealthServer(opts: Omit<HttpEndpointsOptions, 'registry'>): Promise<RunningServer> {
  return startHttpEndpoints(opts);
}

/** `/metrics` only. */
export function startMetricsServer(opts: { port: number; host?: string; registry: Registry }): Promise<RunningServer> {
  return startHttpEndpoints(opts);
}
