// Resource quantities (`cpu: 500m`, `storage: 1Gi`) with upstream's grammar and messages
// (k8s.io/apimachinery/pkg/api/resource/quantity.go). The API server refuses a malformed quantity while
// decoding, without a field path; here it is an Invalid issue at the field, with upstream's wording.

import { invalid, key, NEGATIVE, type IssueList } from './field.js';
import { isObject } from './json.js';

// upstream: splitREString (quoted in ErrFormatWrong)
const SPLIT_RE = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
export const QUANTITY_FORMAT_WRONG = `quantities must match the regular expression '${SPLIT_RE}'`;
export const QUANTITY_SUFFIX = "unable to parse quantity's suffix";

const SUFFIXES = new Set(['', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei']);
const INT64_DIGITS = /^[+-]?[0-9]+$/;
const split = new RegExp(SPLIT_RE);

/** upstream quantitySuffixer.interpret: a known SI/binary suffix, or `e`/`E` and an int64 exponent. */
function suffixOk(suffix: string): boolean {
  if (SUFFIXES.has(suffix)) return true;
  if (suffix.length < 2 || (suffix[0] !== 'e' && suffix[0] !== 'E')) return false;
  const exponent = suffix.slice(1);
  return INT64_DIGITS.test(exponent) && BigInt(exponent) >= -(2n ** 63n) && BigInt(exponent) < 2n ** 63n;
}

interface QuantityText {
  negative: boolean;
  integer: string;
  fraction: string;
  suffix: string;
}

/** upstream ParseQuantity's grammar: its error message, or the parts (leading and trailing spaces trimmed, as UnmarshalJSON does). */
function splitQuantity(text: string): { error: string } | QuantityText {
  const m = split.exec(text.trim());
  if (!m) return { error: QUANTITY_FORMAT_WRONG };
  const [, number = '', suffix = ''] = m;
  // parseQuantityString: digits, at most one '.', then digits (a lone '.' reads as 0, as upstream's does)
  const numeric = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(number);
  if (!numeric) return { error: QUANTITY_FORMAT_WRONG };
  if (!suffixOk(suffix)) return { error: QUANTITY_SUFFIX };
  return { negative: numeric[1] === '-', integer: numeric[2] ?? '', fraction: numeric[3] ?? '', suffix };
}

/** Upstream ParseQuantity's verdict on `text`: its error message, or whether the quantity is negative. */
export function parseQuantity(text: string): { error: string } | { negative: boolean } {
  const q = splitQuantity(text);
  if ('error' in q) return q;
  return { negative: q.negative && !/^0*$/.test(`${q.integer}${q.fraction}`) };
}

/**
 * The text of a quantity as JSON holds it: a string as it is, a number as its decimal text (apimachinery's
 * Quantity.UnmarshalJSON parses a JSON number's text as it parses a string); undefined for anything else.
 */
export function quantityText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}

/** One quantity at `path`: JSON numbers are read as their decimal text, as the API server decodes them. */
export function validateQuantity(value: unknown, path: string, out: IssueList): void {
  const text = quantityText(value);
  const parsed = text === undefined ? { error: QUANTITY_FORMAT_WRONG } : parseQuantity(text);
  if ('error' in parsed) out.add(invalid(path, value, parsed.error));
  // upstream: core/validation ValidateNonnegativeQuantity
  else if (parsed.negative) out.add(invalid(path, value, NEGATIVE));
}

/** A ResourceList (`requests`, `limits`): every value a non-negative quantity, reported at `path[name]`. */
export function validateResourceList(value: unknown, path: string, out: IssueList): void {
  if (!isObject(value)) return;
  for (const name of Object.keys(value).sort()) {
    if (out.full) return;
    validateQuantity(value[name], key(path, name), out);
  }
}

/** Beyond this decimal exponent a quantity is compared by its exponent alone (no storage size comes near). */
const MAX_EXACT_EXPONENT = 400;

const DECIMAL_EXPONENT: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_EXPONENT: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/** A valid quantity as digits × 10^e10 × 2^e2 (exact), or undefined when it does not parse. */
function quantityParts(text: string): { digits: bigint; e10: number; e2: number } | undefined {
  const q = splitQuantity(text);
  if ('error' in q) return undefined;
  const magnitude = BigInt(`${q.integer}${q.fraction}` || '0');
  const exponent = q.suffix in DECIMAL_EXPONENT ? (DECIMAL_EXPONENT[q.suffix] as number) : q.suffix in BINARY_EXPONENT ? 0 : Number(q.suffix.slice(1));
  return { digits: q.negative ? -magnitude : magnitude, e10: exponent - q.fraction.length, e2: BINARY_EXPONENT[q.suffix] ?? 0 };
}

/**
 * Compares two quantities by value (`1Gi` > `1G`, `1024Mi` = `1Gi`, `0.5Gi` = `512Mi`): negative, zero or
 * positive, as upstream's Quantity.Cmp; undefined when either does not parse.
 */
export function compareQuantities(a: string, b: string): number | undefined {
  const x = quantityParts(a);
  const y = quantityParts(b);
  if (x === undefined || y === undefined) return undefined;
  const sign = (d: bigint): number => (d > 0n ? 1 : d < 0n ? -1 : 0);
  if (sign(x.digits) !== sign(y.digits) || x.digits === 0n) return Math.sign(sign(x.digits) - sign(y.digits));
  const e10 = Math.min(x.e10, y.e10);
  const e2 = Math.min(x.e2, y.e2);
  if (Math.abs(x.e10 - e10) > MAX_EXACT_EXPONENT || Math.abs(y.e10 - e10) > MAX_EXACT_EXPONENT) return Math.sign(x.e10 - y.e10) * sign(x.digits);
  const scaled = (q: { digits: bigint; e10: number; e2: number }): bigint => q.digits * 10n ** BigInt(q.e10 - e10) * 2n ** BigInt(q.e2 - e2);
  return sign(scaled(x) - scaled(y));
}

/**
 * The larger of two storage requests: `other` when it is strictly larger than `kept` (or `kept` is absent),
 * else `kept` — so an equal value keeps `kept`'s spelling, and a value that does not parse never replaces it.
 */
export function largerQuantity(kept: string | undefined, other: string | undefined): string | undefined {
  if (kept === undefined) return other;
  return other !== undefined && compareQuantities(other, kept) === 1 ? other : kept;
}

const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'] as const;
const DECIMAL_SUFFIXES = ['', 'k', 'M', 'G', 'T', 'P', 'E'] as const;

/** `n` with the largest suffix (of `suffixes`, each `base` times the one before) that divides it exactly. */
function withSuffix(n: bigint, base: bigint, suffixes: readonly string[]): { text: string; k: number } {
  let k = 0;
  while (n !== 0n && k + 1 < suffixes.length && n % base === 0n) {
    n /= base;
    k++;
  }
  return { text: `${n}${suffixes[k]}`, k };
}

/**
 * The sum of quantities (claims' capacities), written with the largest binary or decimal suffix that keeps
 * it whole (`3Gi`, `1500M`); undefined when one does not parse. Sub-unit sums are written in milli-units.
 */
export function sumQuantities(texts: readonly string[]): string | undefined {
  const parts = texts.map(quantityParts);
  if (parts.some((p) => p === undefined)) return undefined;
  const all = parts as { digits: bigint; e10: number; e2: number }[];
  const e10 = Math.min(0, ...all.map((p) => p.e10));
  if (all.some((p) => p.e10 - e10 > MAX_EXACT_EXPONENT)) return undefined;
  const scaled = all.reduce((sum, p) => sum + p.digits * 10n ** BigInt(p.e10 - e10) * 2n ** BigInt(p.e2), 0n);
  const unit = 10n ** BigInt(-e10);
  if (scaled % unit !== 0n) return `${(scaled * 1000n) / unit}m`;
  const whole = scaled / unit;
  const binary = withSuffix(whole, 1024n, BINARY_SUFFIXES);
  const decimal = withSuffix(whole, 1000n, DECIMAL_SUFFIXES);
  return binary.k >= decimal.k ? binary.text : decimal.text;
}

/**
 * The quantity in units of 10^`exponent` rounded up (upstream's ScaledValue: MilliValue is exponent −3,
 * Value is 0), as a number; undefined when it does not parse. For cpu and memory, which stay far below 2^53.
 */
export function scaledQuantity(text: string, exponent: number): number | undefined {
  const q = quantityParts(text);
  if (q === undefined) return undefined;
  const shift = q.e10 - exponent;
  const numerator = q.digits * 2n ** BigInt(q.e2) * (shift > 0 ? 10n ** BigInt(shift) : 1n);
  const denominator = shift < 0 ? 10n ** BigInt(-shift) : 1n;
  const whole = numerator / denominator;
  return Number(numerator % denominator > 0n ? whole + 1n : whole);
}
