// Label selectors as k8s.io/apimachinery/pkg/labels implements them: metav1.LabelSelector → requirements
// (LabelSelectorAsSelector), matching, the API string form, and parsing of `?labelSelector=` strings.

import type { LabelSelector } from './types.js';
import { isQualifiedName, isValidLabelValue } from './validation/names.js';

export type Operator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!';

export interface Requirement {
  key: string;
  operator: Operator;
  values: string[];
}

export type Labels = Record<string, string> | undefined;
export type LabelMatcher = (labels: Labels) => boolean;

/** A selector that cannot be turned into requirements (LabelSelectorAsSelector or Parse would fail). */
export class SelectorError extends Error {
  override name = 'SelectorError';
}

const isAbsent = (v: unknown): v is undefined | null => v === undefined || v === null;
const has = (labels: Labels, k: string): boolean => !!labels && Object.prototype.hasOwnProperty.call(labels, k);

/** Checks key and values the way labels.NewRequirement does; throws SelectorError. */
// upstream: labels/selector.go NewRequirement
export function newRequirement(key: string, operator: Operator, values: string[]): Requirement {
  const problems = isQualifiedName(key).map((m) => `key: Invalid value: ${JSON.stringify(key)}: ${m}`);
  if ((operator === 'in' || operator === 'notin') && values.length === 0) {
    problems.push("values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty");
  } else if ((operator === '=' || operator === '==' || operator === '!=') && values.length !== 1) {
    problems.push('values: exact-match compatibility requires one single value');
  } else if ((operator === 'exists' || operator === '!') && values.length !== 0) {
    problems.push('values: values set must be empty for exists and does not exist');
  }
  values.forEach((v, i) => {
    for (const m of isValidLabelValue(v)) problems.push(`values[${i}]: Invalid value: ${JSON.stringify(v)}: ${m}`);
  });
  if (problems.length) throw new SelectorError(problems.join('; '));
  return { key, operator, values };
}

// upstream: labels/selector.go Requirement.Matches
export function requirementMatches(r: Requirement, labels: Labels): boolean {
  const present = has(labels, r.key);
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return present && r.values.includes(labels?.[r.key] ?? '');
    case 'notin':
    case '!=':
      return !present || !r.values.includes(labels?.[r.key] ?? '');
    case 'exists':
      return present;
    case '!':
      return !present;
  }
}

const EXPRESSION_OPERATORS: Record<string, Operator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

function expressionRequirement(expr: unknown): Requirement {
  if (typeof expr !== 'object' || expr === null) throw new SelectorError('matchExpressions: each entry must be an object');
  const { key, operator, values } = expr as Record<string, unknown>;
  const op = typeof operator === 'string' && Object.hasOwn(EXPRESSION_OPERATORS, operator) ? EXPRESSION_OPERATORS[operator] : undefined;
  if (!op) throw new SelectorError(`${JSON.stringify(operator)} is not a valid label selector operator`);
  const list = isAbsent(values) ? [] : values;
  if (typeof key !== 'string' || !Array.isArray(list) || !list.every((v) => typeof v === 'string')) {
    throw new SelectorError('matchExpressions: key must be a string and values a list of strings');
  }
  return newRequirement(key, op, [...(list as string[])]);
}

/**
 * metav1.LabelSelectorAsSelector: `null` for a nil selector (matches nothing), `[]` for an empty one (matches
 * everything), else the requirements sorted by key. Throws SelectorError for an invalid selector.
 */
// upstream: apis/meta/v1/helpers.go LabelSelectorAsSelector
export function selectorRequirements(sel: LabelSelector | undefined | null): Requirement[] | null {
  if (sel === undefined || sel === null) return null;
  if (typeof sel !== 'object' || Array.isArray(sel)) throw new SelectorError('selector must be an object');
  const { matchLabels, matchExpressions } = sel as Record<string, unknown>;
  const byLabel = isAbsent(matchLabels) ? {} : matchLabels;
  const expressions = isAbsent(matchExpressions) ? [] : matchExpressions;
  if (typeof byLabel !== 'object' || Array.isArray(byLabel) || !Array.isArray(expressions)) {
    throw new SelectorError('malformed selector');
  }
  const labelEntries = Object.entries(byLabel as object);
  const reqs: Requirement[] = [];
  for (const [k, v] of labelEntries) {
    if (typeof v !== 'string') throw new SelectorError(`matchLabels[${k}] must be a string`);
    reqs.push(newRequirement(k, '=', [v]));
  }
  for (const expr of expressions) reqs.push(expressionRequirement(expr));
  return sortByKey(reqs);
}

const sortByKey = (reqs: Requirement[]): Requirement[] =>
  reqs.map((r, i) => [r, i] as const).sort(([a, i], [b, j]) => (a.key < b.key ? -1 : a.key > b.key ? 1 : i - j)).map(([r]) => r);

/**
 * Whether `labels` satisfy `sel`. An empty selector matches everything; a nil or invalid selector matches
 * nothing (the controller treats an invalid selector as an error and acts on no pods). Never throws.
 */
export function selectorMatches(sel: LabelSelector | undefined, labels: Labels): boolean {
  try {
    const reqs = selectorRequirements(sel);
    return reqs !== null && reqs.every((r) => requirementMatches(r, labels));
  } catch {
    return false;
  }
}

// upstream: labels/selector.go Requirement.String
export function requirementToString(r: Requirement): string {
  if (r.operator === 'exists') return r.key;
  if (r.operator === '!') return `!${r.key}`;
  const values = r.values.length === 1 ? r.values[0] : [...r.values].sort().join(',');
  if (r.operator === 'in' || r.operator === 'notin') return `${r.key} ${r.operator} (${values})`;
  return `${r.key}${r.operator}${values}`;
}

/**
 * The API string form (`app=web,tier in (a,b),!x`); `''` for an empty selector (everything). Throws
 * SelectorError for a nil or invalid selector, which has no string form that selects what it means.
 */
export function selectorToString(sel: LabelSelector): string {
  const reqs = selectorRequirements(sel);
  if (reqs === null) throw new SelectorError('a nil selector selects nothing and has no string form');
  return reqs.map(requirementToString).join(',');
}


// ---- The string form: labels.Parse (the `?labelSelector=` query parameter) ----

interface Token {
  kind: 'id' | 'op' | 'end';
  text: string;
}

const END: Token = { kind: 'end', text: '' };
const SPECIAL = '=!(),<>';
const WHITESPACE = ' \t\r\n';

// upstream: labels/lexer Lex (identifiers are anything up to whitespace or a special symbol)
function lex(s: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < s.length) {
    const ch = s.charAt(i);
    if (WHITESPACE.includes(ch)) {
      i++;
    } else if (SPECIAL.includes(ch)) {
      const two = s.slice(i, i + 2);
      const text = two === '!=' || two === '==' ? two : ch;
      tokens.push({ kind: 'op', text });
      i += text.length;
    } else {
      let j = i;
      while (j < s.length && !SPECIAL.includes(s.charAt(j)) && !WHITESPACE.includes(s.charAt(j))) j++;
      tokens.push({ kind: 'id', text: s.slice(i, j) });
      i = j;
    }
  }
  return tokens;
}

const show = (t: Token): string => (t.kind === 'end' ? '' : t.text);
const fail = (msg: string): never => {
  throw new SelectorError(`unable to parse requirement: ${msg}`);
};
const isStart = (t: Token): boolean => t.kind === 'id' || t.text === '!';
const isStop = (t: Token): boolean => t.kind === 'end' || t.text === ',';

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.pos] ?? END;
  }

  private next(): Token {
    const t = this.peek();
    this.pos++;
    return t;
  }

  // upstream: labels/selector.go Parser.parse
  parseAll(): Requirement[] {
    const reqs: Requirement[] = [];
    for (let t = this.peek(); t.kind !== 'end'; t = this.peek()) {
      if (!isStart(t)) fail(`found '${show(t)}', expected: !, identifier, or 'end of string'`);
      reqs.push(this.requirement());
      const after = this.next();
      if (after.kind === 'end') break;
      if (after.text !== ',') fail(`found '${show(after)}', expected: ',' or 'end of string'`);
      if (!isStart(this.peek())) fail(`found '${show(this.peek())}', expected: identifier or 'end of string'`);
    }
    return sortByKey(reqs);
  }

  // upstream: labels/selector.go Parser.parseRequirement
  private requirement(): Requirement {
    let t = this.next();
    const negated = t.kind === 'op' && t.text === '!';
    if (negated) t = this.next();
    if (t.kind !== 'id') return fail(`found '${show(t)}', expected: identifier`);
    if (negated || isStop(this.peek())) return newRequirement(t.text, negated ? '!' : 'exists', []);
    const operator = this.operator();
    const values = operator === 'in' || operator === 'notin' ? this.setValues() : this.exactValue();
    return newRequirement(t.text, operator, [...new Set(values)].sort());
  }

  private operator(): Operator {
    const t = this.next();
    if (t.kind === 'id' && (t.text === 'in' || t.text === 'notin')) return t.text;
    if (t.kind === 'op' && (t.text === '=' || t.text === '==' || t.text === '!=')) return t.text;
    return fail(`found '${show(t)}', expected: in, notin, =, ==, !=`);
  }

  private exactValue(): string[] {
    if (isStop(this.peek())) return [''];
    const t = this.next();
    return t.kind === 'id' ? [t.text] : fail(`found '${show(t)}', expected: identifier`);
  }

  // upstream: labels/selector.go Parser.parseValues ("()" is the set holding the empty string)
  private setValues(): string[] {
    const open = this.next();
    if (open.text !== '(' || open.kind !== 'op') fail(`found '${show(open)}' expected: '('`);
    if (this.peek().text === ')') {
      this.next();
      return [''];
    }
    const values = this.identifiers();
    const close = this.next();
    if (close.text !== ')') fail(`found '${show(close)}', expected: ')'`);
    return values;
  }

  // upstream: labels/selector.go Parser.parseIdentifiersList (empty slots are the empty string)
  private identifiers(): string[] {
    const values: string[] = [];
    for (;;) {
      const t = this.next();
      if (t.kind === 'id') {
        values.push(t.text);
        const look = this.peek();
        if (look.text === ')') return values;
        if (look.text !== ',') fail(`found '${show(look)}', expected: ',' or ')'`);
      } else if (t.text === ',') {
        if (values.length === 0) values.push('');
        if (this.peek().text === ')') return [...values, ''];
        if (this.peek().text === ',') {
          this.next();
          values.push('');
        }
      } else {
        fail(`found '${show(t)}', expected: ',', or identifier`);
      }
    }
  }
}

/** Parses the API string form into requirements sorted by key (labels.Parse); throws SelectorError. */
export function parseRequirements(s: string): Requirement[] {
  return new Parser(lex(s)).parseAll();
}

/**
 * Compiles a `labelSelector` query string (`=`, `==`, `!=`, `in`, `notin`, `key`, `!key`; `''` selects
 * everything) into a matcher. Throws SelectorError on syntax errors and invalid keys or values.
 */
export function parseSelectorString(s: string): LabelMatcher {
  const reqs = parseRequirements(s);
  return (labels) => reqs.every((r) => requirementMatches(r, labels));
}
