// One way to write a time or a duration of the virtual clock, for the text timeline, the report and the demo.

const twoDigits = (n: number): string => (n < 10 ? `0${n}` : String(n));

/**
 * Every time and duration the report prints, in one format whatever its size: `0.5s`, `45s`, `1m45s`,
 * `3m00s`, `1h05m00s` (milliseconds kept below two minutes, as the virtual clock has them; from two minutes
 * up, whole seconds: a fraction of one is noise there).
 */
export function formatSeconds(t: number): string {
  const ms = Math.abs(t) >= 120 ? Math.round(Math.abs(t)) * 1000 : Math.round(Math.abs(t) * 1000);
  const sign = t < 0 && ms > 0 ? '-' : '';
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  if (h > 0) return `${sign}${h}h${twoDigits(m)}m${twoDigits(s)}s`;
  if (m > 0) return `${sign}${m}m${twoDigits(s)}s`;
  return `${sign}${s}s`;
}
