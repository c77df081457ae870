// The dashboard's HTTP routes (node:http; nothing here needs more than its request and response):
//   GET  /                   the page
//   GET  /api/view?set=KEY   one view (what the stream sends), as JSON
//   GET  /api/stream?set=KEY the views as server-sent events
//   POST /api/action         a rollout action (rollout-actions.ts): the plugin's command and its answer
//   POST /api/forecast       a forecast of a change (forecast-panel.ts)
// Every request passes the guard first (request-guard.ts). A refusal is JSON `{ "error": "…" }` with its HTTP
// status; a command that ran answers 200 with its exit code and output, whatever it said.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ClusterClient } from '../../api/client.js';
import type { Timers } from '../../runtime/clock.js';
import type { DashboardModel } from './dashboard-model.js';
import { dashboardPage, type PageOptions } from './dashboard-page.js';
import { DASHBOARD_SCRIPT } from './dashboard-script.js';
import { ForecastBusyError, type ForecastPanel } from './forecast-panel.js';
import { actionRequest, forecastRequest, HttpError, readJsonBody } from './request-body.js';
import { checkRequest, COMMON_HEADERS, pagePolicy, type Guard } from './request-guard.js';
import { runAction } from './rollout-actions.js';
import type { ViewStream } from './view-stream.js';

export interface DashboardRoutes {
  client: ClusterClient;
  timers: Timers;
  model: DashboardModel;
  stream: ViewStream;
  forecast: ForecastPanel;
  page: PageOptions;
  /** Read at each request: the allowed hosts are known once the server listens (its port). */
  guard: () => Guard;
  /** An error no route expected (a bug): the command prints it with its stack. */
  onError: (e: unknown) => void;
  /** One line per action sent (not the dry runs): the command prints them, a record of what was done. */
  audit?: (line: string) => void;
}

const POLICY = pagePolicy(DASHBOARD_SCRIPT);

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { ...COMMON_HEADERS, 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

function selectedSet(url: URL): string | undefined {
  const key = url.searchParams.get('set');
  return key === null || key === '' ? undefined : key;
}

async function route(r: DashboardRoutes, req: IncomingMessage, res: ServerResponse): Promise<void> {
  checkRequest(req, r.guard());
  const url = new URL(req.url ?? '/', 'http://dashboard');
  const at = `${req.method ?? ''} ${url.pathname}`;
  switch (at) {
    case 'GET /':
      res.writeHead(200, { ...COMMON_HEADERS, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': POLICY }).end(dashboardPage({ ...r.page, token: r.guard().token }));
      return;
    case 'GET /api/view':
      return sendJson(res, 200, r.model.snapshot(selectedSet(url)));
    case 'GET /api/stream':
      for (const [k, v] of Object.entries(COMMON_HEADERS)) if (v !== undefined) res.setHeader(k, v);
      return r.stream.open(res, selectedSet(url));
    case 'POST /api/action': {
      const action = actionRequest(await readJsonBody(req), r.page.namespaces);
      const answer = await runAction(r.client, r.timers, action);
      if (!action.dryRun) r.audit?.(`${answer.command}: exit ${answer.exitCode}${answer.stderr ? `: ${answer.stderr.trim().split('\n')[0] ?? ''}` : ''}`);
      return sendJson(res, 200, answer);
    }
    case 'POST /api/forecast': {
      const body = forecastRequest(await readJsonBody(req), r.page.namespaces);
      try {
        return sendJson(res, 200, await r.forecast.run(body));
      } catch (e) {
        if (e instanceof ForecastBusyError) throw new HttpError(409, e.message);
        throw e;
      }
    }
    default: {
      const known = ['/', '/api/view', '/api/stream', '/api/action', '/api/forecast'].includes(url.pathname);
      throw new HttpError(known ? 405 : 404, known ? `${req.method ?? ''} is not allowed on ${url.pathname}` : `no such page: ${url.pathname}`);
    }
  }
}

/** The server (not listening yet: the command listens, tests listen on port 0). */
export function createDashboardServer(r: DashboardRoutes): Server {
  return createServer((req, res) => {
    route(r, req, res).catch((e: unknown) => {
      if (!(e instanceof HttpError)) r.onError(e);
      if (res.headersSent) return void res.end();
      sendJson(res, e instanceof HttpError ? e.status : 500, { error: e instanceof HttpError ? e.message : `internal error: ${e instanceof Error ? e.message : String(e)}` });
    });
  });
}
