// Name and label syntax with upstream's exact messages (k8s.io/apimachinery/pkg/util/validation). Each
// check returns the list of problems (empty = valid), as upstream's Is* functions do.

import { utf8Length } from './json.js';

export const DNS1123_LABEL_MAX = 63;
export const DNS1123_SUBDOMAIN_MAX = 253;
export const QUALIFIED_NAME_MAX = 63;
export const LABEL_VALUE_MAX = 63;

export const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
export const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const PERCENT_FMT = '[0-9]+%';

const anchored = (fmt: string): RegExp => new RegExp(`^${fmt}$`);
const dns1123Label = anchored(DNS1123_LABEL_FMT);
const dns1123Subdomain = anchored(DNS1123_SUBDOMAIN_FMT);
const qualifiedName = anchored(QUALIFIED_NAME_FMT);
const labelValue = anchored(LABEL_VALUE_FMT);
const percent = anchored(PERCENT_FMT);

// upstream: util/validation/validation.go RegexError (the double space before "or" is upstream's)
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  const shown = examples.map((e, i) => `${i > 0 ? ' or ' : ''}'${e}', `).join('');
  return `${msg} (e.g. ${shown}regex used for validation is '${fmt}')`;
}

export const maxLenError = (n: number): string => `must be no more than ${n} characters`;
export const EMPTY_ERROR = 'must be non-empty';

const DNS1123_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const PERCENT_MSG = "a valid percent string must be a numeric string followed by an ending '%'";

// upstream: util/validation/validation.go IsDNS1123Label
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > DNS1123_LABEL_MAX) errs.push(maxLenError(DNS1123_LABEL_MAX));
  if (!dns1123Label.test(value)) {
    if (dns1123Subdomain.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  }
  return errs;
}

// upstream: util/validation/validation.go IsDNS1123Subdomain
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > DNS1123_SUBDOMAIN_MAX) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX));
  if (!dns1123Subdomain.test(value)) errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

// upstream: util/validation/validation.go IsQualifiedName (label keys, annotation keys)
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  if (parts.length > 2) {
    const shape = regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc');
    return [`a qualified name ${shape} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  const name = parts.length === 2 ? (parts[1] ?? '') : value;
  if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    if (prefix.length === 0) errs.push(`prefix part ${EMPTY_ERROR}`);
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  }
  if (name.length === 0) errs.push(`name part ${EMPTY_ERROR}`);
  else if (utf8Length(name) > QUALIFIED_NAME_MAX) errs.push(`name part ${maxLenError(QUALIFIED_NAME_MAX)}`);
  if (!qualifiedName.test(name)) {
    errs.push(`name part ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  }
  return errs;
}

// upstream: util/validation/validation.go IsValidLabelValue
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > LABEL_VALUE_MAX) errs.push(maxLenError(LABEL_VALUE_MAX));
  if (!labelValue.test(value)) errs.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

// upstream: util/validation/validation.go IsValidPercent
export function isValidPercent(value: string): string[] {
  return percent.test(value) ? [] : [regexError(PERCENT_MSG, PERCENT_FMT, '1%', '93%')];
}

/**
 * upstream's NameIsDNSLabel: with `prefix` (a generateName) a trailing '-' is allowed, because a random suffix
 * follows it.
 */
// upstream: api/validation/generic.go NameIsDNSLabel
export function nameIsDNSLabel(name: string, prefix: boolean): string[] {
  const masked = prefix && name.length > 1 && name.endsWith('-') ? `${name.slice(0, -1)}a` : name;
  return isDNS1123Label(masked);
}
