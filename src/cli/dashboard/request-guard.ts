// Who may use the dashboard: it acts with the user's credentials, so a request must come from its own page.
// - The Host header must name the address it listens on (listen-address.ts allowedHosts): another site whose
//   name resolves to 127.0.0.1 (DNS rebinding) is not answered.
// - A write (POST) must carry the token the page was served with, in a header (X-Ordinal-Dashboard-Token):
//   another site's page can make the browser send a request but not set that header without a CORS preflight,
//   which this server never grants; and its Origin, when the browser sends one, must be the dashboard's.
// - Every answer forbids framing (no clickjacking of the buttons) and, for the page, any script but its own and
//   any request but to itself (Content-Security-Policy): the page loads nothing from the network.

import { createHash } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { HttpError } from './request-body.js';

export const TOKEN_HEADER = 'x-ordinal-dashboard-token';

export interface Guard {
  /** The Host values allowed (lower case); undefined: any. */
  hosts: ReadonlySet<string> | undefined;
  token: string;
}

/** Headers of every answer. */
export const COMMON_HEADERS: OutgoingHttpHeaders = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** The page's policy: its one inline script (by hash), inline styles (the report's chart uses style attributes), requests to itself only. */
export function pagePolicy(script: string): string {
  const hash = createHash('sha256').update(script, 'utf8').digest('base64');
  return [
    "default-src 'none'",
    `script-src 'sha256-${hash}'`,
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Throws HttpError 403 for a request that is not the dashboard's own. */
export function checkRequest(req: IncomingMessage, guard: Guard): void {
  const host = (req.headers.host ?? '').toLowerCase();
  if (guard.hosts !== undefined && !guard.hosts.has(host)) throw new HttpError(403, `unexpected Host header "${host}": open the dashboard at the address it printed`);
  if (req.method !== 'POST') return;
  if (req.headers[TOKEN_HEADER] !== guard.token) throw new HttpError(403, 'missing or wrong dashboard token: reload the page the dashboard served');
  const origin = req.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== `http://${host}`) throw new HttpError(403, `cross-origin request from ${origin} refused`);
  if (req.headers['sec-fetch-site'] === 'cross-site') throw new HttpError(403, 'cross-site request refused');
}
