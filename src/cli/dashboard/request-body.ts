// The JSON bodies the page posts, read strictly: a size limit, every field typed, an unknown field an error,
// each error naming its field (`body.verb: must be one of pause, resume, …`), so a page and a server of
// different versions fail loudly rather than half-do an action.

import type { IncomingMessage } from 'node:http';
import { VERBS, type ActionRequest, type Verb } from './rollout-actions.js';
import type { ForecastRequest } from './forecast-panel.js';

/** A request the server refuses, with its HTTP status. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Largest body read. */
export const MAX_BODY_BYTES = 64 * 1024;

export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') throw new HttpError(415, 'the body must be application/json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `the body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch (e) {
    throw new HttpError(400, `the body is not JSON: ${(e as Error).message}`);
  }
}

type Kind = 'string' | 'boolean' | 'count' | 'strings';
type Shape = Record<string, { kind: Kind; required?: boolean }>;

function checkValue(path: string, value: unknown, kind: Kind): void {
  const ok =
    kind === 'count' ? Number.isSafeInteger(value) && (value as number) >= 0 : kind === 'strings' ? Array.isArray(value) && value.every((v) => typeof v === 'string') : typeof value === kind;
  const want = { string: 'a string', boolean: 'true or false', count: 'a whole number >= 0', strings: 'a list of strings' }[kind];
  if (!ok) throw new HttpError(400, `${path}: must be ${want}`);
}

/** The body's fields after checking them against `shape`; throws HttpError 400 naming the first bad field. */
function strict(body: unknown, shape: Shape): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'body: must be a JSON object');
  const obj = body as Record<string, unknown>;
  for (const key of Object.keys(obj)) if (!(key in shape)) throw new HttpError(400, `body.${key}: unknown field`);
  for (const [key, { kind, required }] of Object.entries(shape)) {
    if (obj[key] === undefined) {
      if (required) throw new HttpError(400, `body.${key}: required`);
      continue;
    }
    checkValue(`body.${key}`, obj[key], kind);
  }
  return obj;
}

/** The set a request names must be one the dashboard watches (its namespace, or any with --all-namespaces). */
function checkNamespace(namespace: string, watched: readonly string[]): void {
  if (namespace === '') throw new HttpError(400, 'body.namespace: must not be empty');
  if (watched.length > 0 && !watched.includes(namespace)) throw new HttpError(400, `body.namespace: the dashboard watches ${watched.join(', ')}, not ${namespace}`);
}

export function actionRequest(body: unknown, watched: readonly string[]): ActionRequest {
  const b = strict(body, {
    namespace: { kind: 'string', required: true },
    set: { kind: 'string', required: true },
    verb: { kind: 'string', required: true },
    dryRun: { kind: 'boolean', required: true },
    full: { kind: 'boolean' },
    toRevision: { kind: 'count' },
  });
  const verb = b['verb'] as string;
  if (!(VERBS as readonly string[]).includes(verb)) throw new HttpError(400, `body.verb: must be one of ${VERBS.join(', ')}`);
  if (b['full'] !== undefined && verb !== 'promote') throw new HttpError(400, 'body.full: only for promote');
  if (b['toRevision'] !== undefined && verb !== 'undo') throw new HttpError(400, 'body.toRevision: only for undo');
  checkNamespace(b['namespace'] as string, watched);
  return {
    namespace: b['namespace'] as string,
    set: b['set'] as string,
    verb: verb as Verb,
    dryRun: b['dryRun'] as boolean,
    ...(b['full'] !== undefined ? { full: b['full'] as boolean } : {}),
    ...(b['toRevision'] !== undefined ? { toRevision: b['toRevision'] as number } : {}),
  };
}

export function forecastRequest(body: unknown, watched: readonly string[]): ForecastRequest {
  const b = strict(body, {
    namespace: { kind: 'string', required: true },
    set: { kind: 'string', required: true },
    images: { kind: 'strings' },
    settings: { kind: 'strings' },
    runs: { kind: 'count' },
  });
  checkNamespace(b['namespace'] as string, watched);
  const images = (b['images'] as string[] | undefined) ?? [];
  const settings = (b['settings'] as string[] | undefined) ?? [];
  if (images.length === 0 && settings.length === 0) throw new HttpError(400, 'body: give the change: images (CONTAINER=IMAGE) or settings (PATH=VALUE)');
  const runs = b['runs'] as number | undefined;
  if (runs !== undefined && (runs < 1 || runs > 100)) throw new HttpError(400, 'body.runs: must be from 1 to 100');
  return { namespace: b['namespace'] as string, set: b['set'] as string, images, settings, ...(runs !== undefined ? { runs } : {}) };
}
