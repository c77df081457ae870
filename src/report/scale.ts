// Layout and the time axis shared by the report's charts.

export const LABEL_W = 160;
export const PLOT_W = 900;
export const ROW_H = 18;
export const AXIS_H = 28;

export interface TimeScale {
  end: number;
  x(t: number): number;
  ticks: number[];
}

/** Round tick spacing (1, 2, 5 × 10^k) giving about eight ticks over [0, end]. */
export function tickStep(end: number): number {
  const raw = Math.max(end, 1e-9) / 8;
  const base = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (base * m >= raw) return base * m;
  return base * 10;
}

export function timeScale(end: number): TimeScale {
  const span = end > 0 ? end : 1;
  const step = tickStep(span);
  const ticks: number[] = [];
  for (let t = 0; t <= span + 1e-9 && ticks.length < 50; t += step) ticks.push(Math.round(t * 1000) / 1000);
  return { end: span, x: (t) => LABEL_W + (Math.min(Math.max(t, 0), span) / span) * PLOT_W, ticks };
}

export function formatSeconds(t: number): string {
  if (t >= 3600 && t % 60 === 0) return `${Math.floor(t / 3600)}h${String((t % 3600) / 60).padStart(2, '0')}m`;
  if (t >= 120 && Number.isInteger(t)) return `${Math.floor(t / 60)}m${String(t % 60).padStart(2, '0')}s`;
  return `${Math.round(t * 1000) / 1000}s`;
}
