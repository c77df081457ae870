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

export { parseGoDuration } from '../../api/duration.js';
