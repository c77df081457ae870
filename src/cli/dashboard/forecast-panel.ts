// The dashboard's forecast panel runs `kubectl ordinal forecast NAME --image C=I --set PATH=VALUE` (the
// command function of cli/commands/forecast.ts, on the user's client) and shows what it prints: the same
// durations learned from the set's pods, the same simulated runs, the same table. One forecast runs at a time
// (each is many simulated rollouts): another asked meanwhile is refused, not queued.

import type { ClusterClient } from '../../api/client.js';
import type { Timers } from '../../runtime/clock.js';
import { forecastCommand } from '../commands/forecast.js';
import { parseImage, parseSet } from '../explain/change-flags.js';
import { bufferIO } from '../explain/io.js';

export interface ForecastRequest {
  namespace: string;
  /** The set as kubectl names it: `statefulset.apps/web`. */
  set: string;
  /** `CONTAINER=IMAGE`, as `--image`. */
  images: string[];
  /** `PATH=VALUE` (the value read as YAML), as `--set`. */
  settings: string[];
  /** Simulated runs per setting (`--runs`; the command's default when absent). */
  runs?: number;
}

export interface ForecastAnswer {
  command: string;
  exitCode: number;
  stdout: string;
  stderr: string;
}

const quoted = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export function forecastCommandLine(r: ForecastRequest): string {
  const flags = [...r.images.map((i) => `--image ${quoted(i)}`), ...r.settings.map((s) => `--set ${quoted(s)}`), ...(r.runs !== undefined ? [`--runs ${r.runs}`] : [])];
  return ['kubectl ordinal forecast', r.set, '-n', r.namespace, ...flags].join(' ');
}

export class ForecastPanel {
  private running = false;

  constructor(
    private readonly client: ClusterClient,
    private readonly timers: Timers,
  ) {}

  get busy(): boolean {
    return this.running;
  }

  /** The command's answer; exit code 2 for a malformed --image or --set, as the command gives. Throws when busy. */
  async run(r: ForecastRequest): Promise<ForecastAnswer> {
    const command = forecastCommandLine(r);
    let image, set;
    try {
      image = r.images.map(parseImage);
      set = r.settings.map(parseSet);
    } catch (e) {
      return { command, exitCode: 2, stdout: '', stderr: `error: ${(e as Error).message}\n` };
    }
    if (this.running) throw new ForecastBusyError('a forecast is running already: wait for its answer');
    this.running = true;
    try {
      const io = bufferIO();
      const exitCode = await forecastCommand({ client: this.client, namespace: r.namespace, io, timers: this.timers }, r.set, { image, set, ...(r.runs !== undefined ? { runs: r.runs } : {}) });
      return { command, exitCode, stdout: io.out, stderr: io.err };
    } finally {
      this.running = false;
    }
  }
}

export class ForecastBusyError extends Error {
  override name = 'ForecastBusyError';
}
