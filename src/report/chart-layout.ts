// Layout and the time axis shared by the report's charts.

export const LABEL_W = 160;
export const PLOT_W = 900;
export const ROW_H = 18;
export const AXIS_H = 28;

export interface TimeScale {
  end: number;
  step: number;
  x(t: number): number;
  ticks: number[];
}

const STEPS = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];

/** A clock-friendly tick spacing (seconds, then minutes, then hours) giving at most about eight ticks. */
export function tickStep(end: number): number {
  const raw = Math.max(end, 1e-9) / 8;
  return STEPS.find((s) => s >= raw) ?? Math.ceil(raw / 86400) * 86400;
}

/** A tick label in the unit of the tick spacing: `90s`, `15m`, `2h`, `1h30m`. */
export function formatTick(t: number, step: number): string {
  if (step >= 3600 && t % 60 === 0) {
    const h = Math.floor(t / 3600);
    const m = (t % 3600) / 60;
    return m ? `${h}h${m}m` : `${h}h`;
  }
  if (step >= 60 && t % 60 === 0) return `${t / 60}m`;
  return `${Math.round(t * 1000) / 1000}s`;
}

/**
 * The time axis of a run that ended at `runEnd`, drawn a little further (3 %, at least a second) so that
 * what changed at the very end — the last status write, usually — is seen, not hidden on the last pixel.
 */
export function reportScale(runEnd: number): TimeScale {
  return timeScale(runEnd + Math.max(1, runEnd * 0.03));
}

export function timeScale(end: number): TimeScale {
  const span = end > 0 ? end : 1;
  const step = tickStep(span);
  const ticks: number[] = [];
  for (let t = 0; t <= span + 1e-9 && ticks.length < 50; t += step) ticks.push(Math.round(t * 1000) / 1000);
  return { end: span, step, x: (t) => LABEL_W + (Math.min(Math.max(t, 0), span) / span) * PLOT_W, ticks };
}

export { formatSeconds } from '../sim/format-seconds.js';
