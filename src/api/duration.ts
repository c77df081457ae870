// Go durations (`30s`, `5m`, `1h2m3s`), as kubectl flags and the spec's step durations are written.

const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A Go duration (`30s`, `5m`, `1h2m3s`, `1.5h`, `0`) in milliseconds, as kubectl's `--timeout` takes it.
 * Throws RangeError with Go's wording for anything else (a bare number other than 0 has no unit).
 */
// upstream: go time.ParseDuration
export function parseGoDuration(text: string): number {
  const s = text.trim();
  if (s === '0' || s === '+0' || s === '-0') return 0;
  const part = /([0-9]*\.?[0-9]+)(ns|us|µs|ms|s|m|h)/y;
  let total = 0;
  let pos = 0;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    sign = s.startsWith('-') ? -1 : 1;
    pos = 1;
  }
  if (pos >= s.length) throw new RangeError(`time: invalid duration "${text}"`);
  while (pos < s.length) {
    part.lastIndex = pos;
    const m = part.exec(s);
    if (m === null) {
      const unitless = /^[0-9.]+$/.test(s.slice(pos));
      throw new RangeError(unitless ? `time: missing unit in duration "${text}"` : `time: invalid duration "${text}"`);
    }
    total += Number(m[1]) * (UNITS[m[2] ?? 's'] ?? 1000);
    pos = part.lastIndex;
  }
  return sign * total;
}
