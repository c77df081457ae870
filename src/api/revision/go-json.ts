// Go's encoding/json output for a JSON value decoded into interface{} (maps, []interface{}, float64, string,
// bool, nil). Revision data is hashed byte for byte, so Ordinal must write exactly the bytes
// kube-controller-manager writes for the same template, or moving a set between the two rolls its pods.

/** Go's htmlSafeSet: printable ASCII except `"`, `\`, `<`, `>`, `&` (DEL is passed through). */
function isHtmlSafe(c: number): boolean {
  return c >= 0x20 && c !== 0x22 && c !== 0x5c && c !== 0x3c && c !== 0x3e && c !== 0x26;
}

const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  0x22: '\\"',
  0x5c: '\\\\',
  0x08: '\\b',
  0x0c: '\\f',
  0x0a: '\\n',
  0x0d: '\\r',
  0x09: '\\t',
};

function escapeAscii(c: number): string {
  return SHORT_ESCAPES[c] ?? `\\u00${c.toString(16).padStart(2, '0')}`;
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/**
 * A lone surrogate can only come from a `\udXXX` escape in JSON text; Go's decoder turns that into U+FFFD,
 * which its encoder then writes unescaped. Writing U+FFFD here gives the bytes Go gives for the same text.
 */
const REPLACEMENT = '\ufffd';

// upstream: encoding/json encode.go appendString (escapeHTML = true)
function encodeString(s: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let rep: string | undefined;
    if (c < 0x80) {
      if (!isHtmlSafe(c)) rep = escapeAscii(c);
    } else if (c === 0x2028 || c === 0x2029) {
      rep = `\\u${c.toString(16)}`;
    } else if (isHigh(c) && isLow(s.charCodeAt(i + 1))) {
      i++;
    } else if (isHigh(c) || isLow(c)) {
      rep = REPLACEMENT;
    }
    if (rep !== undefined) {
      out += s.slice(start, i) + rep;
      start = i + 1;
    }
  }
  return out + s.slice(start) + '"';
}

/** The code point Go sees after decoding: lone surrogates are U+FFFD. */
function codePointAt(s: string, i: number): { cp: number; width: number } {
  const c = s.charCodeAt(i);
  if (isHigh(c) && isLow(s.charCodeAt(i + 1))) return { cp: s.codePointAt(i) as number, width: 2 };
  if (isHigh(c) || isLow(c)) return { cp: 0xfffd, width: 1 };
  return { cp: c, width: 1 };
}

/**
 * Orders strings like Go's strings.Compare on their UTF-8 bytes, which is code-point order (JavaScript's
 * default sort compares UTF-16 code units and puts U+10000.. before U+E000..U+FFFF).
 */
export function compareUtf8(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = codePointAt(a, i);
    const y = codePointAt(b, j);
    if (x.cp !== y.cp) return x.cp < y.cp ? -1 : 1;
    i += x.width;
    j += y.width;
  }
  if (i < a.length) return 1;
  return j < b.length ? -1 : 0;
}

// upstream: encoding/json encode.go floatEncoder.encode (bits = 64)
function encodeNumber(x: number): string {
  if (!Number.isFinite(x)) throw new TypeError(`json: unsupported value: ${String(x)}`);
  if (Object.is(x, -0)) return '-0';
  // ECMAScript's Number::toString picks the same shortest round-trip digits as strconv.AppendFloat(-1) and
  // switches to exponent form at the same bounds (|x| < 1e-6 or ≥ 1e21) with the same unpadded exponent
  // ("1e-7", "1e+21") that Go gets after its "e-07" → "e-7" clean-up; the Go vectors test this.
  return String(x);
}

function encodeObject(o: Record<string, unknown>): string {
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort(compareUtf8);
  return `{${keys.map((k) => `${encodeString(k)}:${encodeValue(o[k])}`).join(',')}}`;
}

function encodeValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return encodeString(v);
    case 'number':
      return encodeNumber(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object':
      if (Array.isArray(v)) return `[${v.map(encodeValue).join(',')}]`;
      return encodeObject(v as Record<string, unknown>);
    case 'bigint':
    case 'function':
    case 'symbol':
    case 'undefined':
      break;
  }
  throw new TypeError(`json: unsupported type: ${typeof v}`);
}

/**
 * What Go's `json.Marshal` writes for `value` decoded into `map[string]interface{}`: keys sorted by UTF-8
 * bytes at every level, no whitespace, `<` `>` `&` U+2028 U+2029 escaped, numbers as float64. Object
 * members that are `undefined` are left out; `undefined` in an array is `null` (as JSON.stringify does).
 * Throws TypeError for NaN, ±Infinity, bigint, functions and symbols (Go has no JSON for them either).
 */
export function goJsonEncode(value: unknown): string {
  return encodeValue(value);
}
