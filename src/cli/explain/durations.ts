// Durations as the CLI prints them: sentences say "12 s"; tables use kubectl's AGE style ("5m3s").

/** Whole seconds, rounded up so that "0 s left" never shows while something is still pending: "12 s". */
export function formatSecondsLeft(ms: number): string {
  return `${Math.max(0, Math.ceil(ms / 1000))} s`;
}

/** A wait in a sentence: "12 s" up to two minutes, then kubectl's style ("10m", "2h5m"). */
export function formatWait(ms: number): string {
  return ms < 120_000 ? formatSecondsLeft(ms) : humanDuration(ms);
}

/** kubectl's AGE column (apimachinery duration.HumanDuration). */
// upstream: k8s.io/apimachinery/pkg/util/duration duration.go HumanDuration
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.floor(seconds / 3600);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.floor(hours / 24) % 365;
    return dy === 0 ? `${Math.floor(hours / 24 / 365)}y` : `${Math.floor(hours / 24 / 365)}y${dy}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

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
