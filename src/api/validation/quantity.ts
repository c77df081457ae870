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

/**
 * Upstream ParseQuantity's verdict on `text`: its error message, or whether the quantity is negative.
 * Leading and trailing spaces are trimmed, as UnmarshalJSON does.
 */
export function parseQuantity(text: string): { error: string } | { negative: boolean } {
  const s = text.trim();
  const m = split.exec(s);
  if (!m) return { error: QUANTITY_FORMAT_WRONG };
  const [, number = '', suffix = ''] = m;
  // parseQuantityString: digits, at most one '.', then digits (a lone '.' reads as 0, as upstream's does)
  const numeric = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(number);
  if (!numeric) return { error: QUANTITY_FORMAT_WRONG };
  if (!suffixOk(suffix)) return { error: QUANTITY_SUFFIX };
  const zero = /^0*$/.test(`${numeric[2] ?? ''}${numeric[3] ?? ''}`);
  return { negative: numeric[1] === '-' && !zero };
}

/** One quantity at `path`: JSON numbers are read as their decimal text, as the API server decodes them. */
export function validateQuantity(value: unknown, path: string, out: IssueList): void {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
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
