// The controller's logger: pino, as JSON lines (default, for log collectors) or as one readable line per
// record (`--log-format text`: `time LEVEL message key=value …`) without pino-pretty.

import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';
import type { LogFormat, LogLevel } from './controller-options.js';

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const OMIT = new Set(['level', 'time', 'msg', 'pid', 'hostname']);

function fieldValue(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return /[\s"=]/.test(s ?? '') ? JSON.stringify(s) : String(s);
}

/** One pino JSON record as a text line. */
export function formatTextLine(json: string): string {
  let rec: Record<string, unknown>;
  try {
    rec = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const time = typeof rec.time === 'string' ? rec.time : new Date(Number(rec.time)).toISOString();
  const level = (LEVEL_NAMES[Number(rec.level)] ?? String(rec.level)).padEnd(5);
  const fields = Object.entries(rec)
    .filter(([k]) => !OMIT.has(k))
    .map(([k, v]) => `${k}=${fieldValue(v)}`);
  return `${time} ${level} ${String(rec.msg ?? '')}${fields.length ? ' ' + fields.join(' ') : ''}\n`;
}

export function textDestination(write: (text: string) => void): DestinationStream {
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line) write(formatTextLine(line));
    },
  };
}

export function createLogger(
  format: LogFormat,
  level: LogLevel,
  write: (text: string) => void = (t) => process.stderr.write(t),
): PinoLogger {
  const opts = { level, base: { component: 'ordinal-controller' }, timestamp: pino.stdTimeFunctions.isoTime };
  const dest: DestinationStream = format === 'text' ? textDestination(write) : { write: (chunk: string) => write(chunk) };
  return pino(opts, dest);
}
