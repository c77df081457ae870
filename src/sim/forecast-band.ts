// The band a forecast reports from its runs (p5/p50/p95), and when a setting has run enough.
//
// p50 is the median run. p5 and p95 are the nearest-rank percentiles of the runs, widened to the 90 %
// prediction interval of a normal law fitted to them (mean ± t(0.95, n−1) · s · √(1 + 1/n), whole seconds
// outward): with 20 runs the nearest-rank band held 86–92 % of the durations of further runs in the
// calibration cases (bench/README.md, "Forecast calibration"), and fewer runs hold fewer; the interval
// accounts for how few runs there are, so a setting can stop early and keep the band honest.
//
// A setting's runs stop once the band holds still: from MIN_RUNS on, after every CHECK_EVERY runs, when none
// of p5/p50/p95 moved by more than a tenth of the band's width (at least half a second) since the last look,
// or at the most runs asked for. The decision reads the runs in seed order only, so it is the same whatever
// the threads.

import { percentile } from '../controller/model/learned-durations.js';

export interface Band {
  p5?: number;
  p50?: number;
  p95?: number;
}

export const MIN_RUNS = 8;
export const CHECK_EVERY = 2;
const MOVE_OF_WIDTH = 0.1;
const MOVE_AT_LEAST = 0.5;

/** One-sided 95 % quantiles of Student's t for 1, 2, … 30 degrees of freedom (the normal's beyond). */
const T95 = [6.314, 2.92, 2.353, 2.132, 2.015, 1.943, 1.895, 1.86, 1.833, 1.812, 1.796, 1.782, 1.771, 1.761, 1.753, 1.746, 1.74, 1.734, 1.729, 1.725, 1.721, 1.717, 1.714, 1.711, 1.708, 1.706, 1.703, 1.701, 1.699, 1.697];
const t95 = (df: number): number => T95[df - 1] ?? 1.645;

/** The band of `values` (any order); empty without values. */
export function bandOf(values: readonly number[]): Band {
  const sorted = [...values].sort((a, b) => a - b);
  const order = { p5: percentile(sorted, 5), p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
  const n = sorted.length;
  if (order.p5 === undefined || order.p95 === undefined || n < 2) return Object.fromEntries(Object.entries(order).filter(([, v]) => v !== undefined));
  const mean = sorted.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(sorted.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
  const half = t95(n - 1) * sd * Math.sqrt(1 + 1 / n);
  // a band of equal runs stays that value; else whole seconds outward (the durations' own resolution)
  if (half === 0) return order;
  return { p5: Math.min(order.p5, Math.floor(mean - half)), p50: order.p50, p95: Math.max(order.p95, Math.ceil(mean + half)) };
}

/** Whether a setting whose band was `before` and is `now` after more runs has run enough. */
export function holdsStill(before: Band, now: Band): boolean {
  if (now.p5 === undefined || now.p95 === undefined) return before.p50 === undefined && now.p50 === undefined;
  const tolerance = Math.max(MOVE_AT_LEAST, MOVE_OF_WIDTH * (now.p95 - now.p5));
  return (['p5', 'p50', 'p95'] as const).every((k) => {
    const a = before[k];
    const b = now[k];
    return a !== undefined && b !== undefined && Math.abs(a - b) <= tolerance;
  });
}

/** How many runs a setting makes next: the first look, or the next one (capped at `most`). */
export const nextLook = (made: number, most: number): number => Math.min(most, made === 0 ? MIN_RUNS : made + CHECK_EVERY);

/**
 * Whether a setting whose runs so far (in seed order, at a look: undefined for a run that did not converge)
 * are `seconds` has run enough: it made `most`, or its band holds still since the look before.
 */
export function madeEnough(seconds: readonly (number | undefined)[], most: number): boolean {
  const n = seconds.length;
  if (n >= most) return true;
  if (n < MIN_RUNS + CHECK_EVERY) return false;
  const band = (k: number) => bandOf(seconds.slice(0, k).filter((s): s is number => s !== undefined));
  return holdsStill(band(n - CHECK_EVERY), band(n));
}
