// Field rules that exist twice, once per side of the API server's door: each kind holds the TypeScript check
// the controller and `ordinal validate` run and the CEL rules (x-kubernetes-validations) the CRD runs, with
// one message, so the two are written side by side and cannot drift apart unnoticed. template-rules.ts says
// where each kind applies; schema/template-schema.ts puts the CEL into the CRD; test/deploy/template-cases.ts
// holds both to apps/v1's verdicts and field paths on kube-apiserver.

import type { FieldIssue } from '../errors.js';
import type { CelRule, Schema } from '../schema/schema-dsl.js';
import { invalid, NEGATIVE, notSupported } from './field.js';
import { DNS1123_LABEL_FMT, DNS1123_LABEL_MAX, DNS1123_SUBDOMAIN_FMT, DNS1123_SUBDOMAIN_MAX, isDNS1123Label, isDNS1123Subdomain } from './names.js';
import { parseQuantity, QUANTITY_FORMAT_WRONG, quantityText } from './quantity.js';

/**
 * A check of one field's value, for both sides. The value is present, non-zero (template-rules.ts handles
 * absence and Go's zero value) and of the field's JSON type.
 */
export interface FieldKind {
  /** Issues for the value at `path`, with upstream's paths, types and messages. */
  check(value: unknown, path: string): FieldIssue[];
  /** CEL on the field's own node, `self` being the value (the CRD adds the zero-value guard). */
  cel: CelRule[];
  /** Bounds the CRD declares on the field's node, so that its rules fit kube-apiserver's cost budget. */
  schema?: Partial<Schema>;
}

const kind = (check: FieldKind['check'], cel: CelRule[], schema?: Partial<Schema>): FieldKind => ({ check, cel, ...(schema ? { schema } : {}) });

const celString = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const supported = (values: readonly string[]): string => `supported values: ${values.map((v) => JSON.stringify(v)).join(', ')}`;

/** One of `values` (upstream's NotSupported); "" is defaulted before validation, so it passes. */
export function oneOf(values: readonly string[]): FieldKind {
  return kind(
    (v, path) => (values.includes(v as string) ? [] : [notSupported(path, v, values)]),
    [{ rule: `self in [${values.map(celString).join(', ')}]`, message: supported(values) }],
  );
}

/** The regex's message of isDNS1123Label / isDNS1123Subdomain: the last they give for a name such as '-'. */
const messageOf = (msgs: string[]): string => msgs.at(-1) ?? '';

/** A DNS-1123 label (container, volume names). Longer than 63: the CRD's maxLength says "Too long". */
export const dns1123Label: FieldKind = kind(
  (v, path) => isDNS1123Label(v as string).map((m) => invalid(path, v, m)),
  [{ rule: `self.matches(${celString(`^${DNS1123_LABEL_FMT}$`)})`, message: messageOf(isDNS1123Label('-')) }],
  { maxLength: DNS1123_LABEL_MAX },
);

/** A DNS-1123 subdomain (serviceAccountName). */
export const dns1123Subdomain: FieldKind = kind(
  (v, path) => isDNS1123Subdomain(v as string).map((m) => invalid(path, v, m)),
  [{ rule: `self.matches(${celString(`^${DNS1123_SUBDOMAIN_FMT}$`)})`, message: messageOf(isDNS1123Subdomain('-')) }],
  { maxLength: DNS1123_SUBDOMAIN_MAX },
);

export const PORT_RANGE = 'must be between 1 and 65535, inclusive';

/** A port number, 1–65535 (0 means unset). */
// upstream: util/validation IsValidPortNum
export const portNumber: FieldKind = kind(
  (v, path) => ((v as number) >= 1 && (v as number) <= 65535 ? [] : [invalid(path, v, PORT_RANGE)]),
  [{ rule: 'self >= 1 && self <= 65535', message: PORT_RANGE }],
);

export const PORT_NAME_MAX = 15;
const PORT_NAME_RULES: ReadonlyArray<{ test: (s: string) => boolean; rule: string; message: string }> = [
  { test: (s) => /^[-a-z0-9]+$/.test(s), rule: "self.matches('^[-a-z0-9]+$')", message: 'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)' },
  { test: (s) => /[a-z]/.test(s), rule: "self.matches('[a-z]')", message: 'must contain at least one letter (a-z)' },
  { test: (s) => !s.includes('--'), rule: "!self.contains('--')", message: 'must not contain consecutive hyphens' },
  { test: (s) => !s.startsWith('-') && !s.endsWith('-'), rule: "!self.startsWith('-') && !self.endsWith('-')", message: 'must not begin or end with a hyphen' },
];

/** A port name (IANA_SVC_NAME); longer than 15: the CRD's maxLength says "Too long". */
// upstream: util/validation IsValidPortName
export const portName: FieldKind = kind(
  (v, path) => {
    const s = v as string;
    const msgs = [...(s.length > PORT_NAME_MAX ? [`must be no more than ${PORT_NAME_MAX} characters`] : []), ...PORT_NAME_RULES.filter((r) => !r.test(s)).map((r) => r.message)];
    return msgs.map((m) => invalid(path, v, m));
  },
  PORT_NAME_RULES.map(({ rule, message }) => ({ rule, message })),
  { maxLength: PORT_NAME_MAX },
);

// A quantity is kept as written (a string, or a JSON number: `cpu: 0.5`), so its CRD node has no type and
// CEL cannot read it: the CRD checks it by pattern. QUANTITY_PATTERN is parseQuantity's grammar (quantity.ts)
// after the trim Quantity.UnmarshalJSON does, without a negative value; exponents beyond int64 are left to
// the controller.
const MANTISSA = '([0-9]+(\\.[0-9]*)?|\\.[0-9]*)';
const SUFFIX = '([numkMGTPE]|[KMGTPE]i|[eE][+-]?[0-9]+)?';
export const QUANTITY_PATTERN = `^\\s*(\\+?${MANTISSA}|-(0+(\\.0*)?|\\.0*))${SUFFIX}\\s*$`;

/** A resource quantity that parses and is not negative. */
// upstream: resource.ParseQuantity (at decoding) and core/validation ValidateNonnegativeQuantity
export const quantity: FieldKind = kind(
  (v, path) => {
    const text = quantityText(v);
    const parsed = text === undefined ? { error: QUANTITY_FORMAT_WRONG } : parseQuantity(text);
    if ('error' in parsed) return [invalid(path, v, parsed.error)];
    return parsed.negative ? [invalid(path, v, NEGATIVE)] : [];
  },
  [],
  // the pattern holds for strings, minimum for numbers
  { pattern: QUANTITY_PATTERN, minimum: 0 },
);
