// The simulator's Prometheus: the scenario's `cluster.metrics` series, one per running pod and metric (labels
// `namespace`, `pod` and the metric's own), answering a Prometheus analysis' instant queries at virtual time.
// Queries are parsed by Prometheus' own PromQL grammar (@prometheus-io/lezer-promql) and evaluated over a
// subset of PromQL that a canary analysis needs: selectors with label matchers; rate, irate and increase of a
// counter (its `value` is its rate per second, so rate() returns it), the *_over_time of a gauge; sum, avg,
// min, max and count, by or without labels; + - * / between numbers and vectors (one-to-one on equal label
// sets); parentheses. Anything else is an answer with an error, as a real server gives for a bad query, and
// the analysis' errorPolicy decides. The answer has the HTTP API's shape, so prometheus-verdict.ts judges it
// as it judges a real one.

import { parser } from '@prometheus-io/lezer-promql';
import type { SyntaxNode } from '@lezer/common';
import { parseGoDuration } from '../api/duration.js';
import { globMatches } from '../cluster/kubelet/config.js';
import type { QueryData } from '../runtime/prometheus-verdict.js';
import type { MetricSeriesSpec } from './scenario-types.js';

/** A pod the simulated Prometheus scrapes: Running, not yet gone. */
export interface ScrapedPod {
  namespace: string;
  name: string;
  images: readonly string[];
  /** When it started running (ms): a counter grows from there. */
  runningSince: number;
}

type Labels = Record<string, string>;
interface Sample {
  labels: Labels;
  value: number;
}
type Value = { kind: 'scalar'; value: number } | { kind: 'vector'; samples: Sample[] };
/** A range selector's series: the kind and per-pod value, from which the functions compute. */
interface RangeSeries {
  labels: Labels;
  spec: MetricSeriesSpec;
  value: number;
  runningSince: number;
}

export class QueryError extends Error {}

const AGGREGATES: Record<string, (xs: number[]) => number> = {
  sum: (xs) => xs.reduce((a, b) => a + b, 0),
  avg: (xs) => xs.reduce((a, b) => a + b, 0) / xs.length,
  min: (xs) => Math.min(...xs),
  max: (xs) => Math.max(...xs),
  count: (xs) => xs.length,
};
const ARITHMETIC: Record<string, (a: number, b: number) => number> = { Add: (a, b) => a + b, Sub: (a, b) => a - b, Mul: (a, b) => a * b, Div: (a, b) => a / b };

/** The series' value for a pod: the first of `images` (exact, then glob) one of its containers runs, else `value`. */
function valueFor(spec: MetricSeriesSpec, pod: ScrapedPod): number {
  const byImage = spec.images ?? {};
  for (const image of pod.images) if (Object.hasOwn(byImage, image)) return byImage[image] as number;
  for (const [pattern, value] of Object.entries(byImage)) if (pattern.includes('*') && pod.images.some((i) => globMatches(pattern, i))) return value;
  return spec.value;
}

const withoutName = (labels: Labels): Labels => Object.fromEntries(Object.entries(labels).filter(([k]) => k !== '__name__'));
const signature = (labels: Labels): string => JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)));

/** A PromQL string literal's text (Go's quoting: "…" and '…' with escapes, `…` raw). */
function unquote(text: string): string {
  if (text.startsWith('`')) return text.slice(1, -1);
  const body = text.slice(1, -1);
  return JSON.parse(`"${(text.startsWith("'") ? body.replace(/\\'/g, "'").replace(/"/g, '\\"') : body)}"`) as string;
}

export class SimulatedPrometheus {
  constructor(
    private readonly series: readonly MetricSeriesSpec[],
    private readonly scraped: () => readonly ScrapedPod[],
  ) {}

  /** The answer to an instant query at `now` (ms): the HTTP API's `data`; throws QueryError for what it cannot evaluate. */
  query(text: string, now: number): QueryData {
    const tree = parser.parse(text);
    let bad: number | undefined;
    tree.iterate({ enter: (n) => void (n.type.isError && bad === undefined && (bad = n.from)) });
    if (bad !== undefined) throw new QueryError(`parse error at character ${bad + 1}`);
    const expr = tree.topNode.firstChild;
    if (expr === null) throw new QueryError('empty query');
    const value = new Evaluation(text, this.series, this.scraped(), now).eval(expr);
    const at = now / 1000;
    if (value.kind === 'scalar') return { resultType: 'scalar', result: [at, String(value.value)] };
    return { resultType: 'vector', result: value.samples.map((s) => ({ metric: s.labels, value: [at, String(s.value)] })) };
  }
}

class Evaluation {
  constructor(
    private readonly text: string,
    private readonly series: readonly MetricSeriesSpec[],
    private readonly pods: readonly ScrapedPod[],
    private readonly now: number,
  ) {}

  private src = (n: SyntaxNode): string => this.text.slice(n.from, n.to);
  private unsupported = (n: SyntaxNode): QueryError => new QueryError(`the simulated Prometheus does not evaluate ${this.src(n).slice(0, 60)}`);

  eval(n: SyntaxNode): Value {
    switch (n.name) {
      case 'ParenExpr':
        return this.eval(n.firstChild as SyntaxNode);
      case 'NumberDurationLiteral':
        return { kind: 'scalar', value: Number(this.src(n)) };
      case 'VectorSelector':
        return { kind: 'vector', samples: this.select(n).map((s) => ({ labels: s.labels, value: s.spec.type === 'gauge' ? s.value : (s.value * Math.max(0, this.now - s.runningSince)) / 1000 })) };
      case 'FunctionCall':
        return this.call(n);
      case 'AggregateExpr':
        return this.aggregate(n);
      case 'BinaryExpr':
        return this.binary(n);
      default:
        throw this.unsupported(n);
    }
  }

  /** The series a selector picks, with the pods' values. */
  private select(n: SyntaxNode): RangeSeries[] {
    const name = n.getChild('Identifier');
    const matchers: { label: string; op: string; value: string }[] = name === null ? [] : [{ label: '__name__', op: 'EqlSingle', value: this.src(name) }];
    for (const m of n.getChild('LabelMatchers')?.getChildren('UnquotedLabelMatcher') ?? []) {
      const [label, op, literal] = [m.getChild('LabelName'), m.getChild('MatchOp')?.firstChild, m.getChild('StringLiteral')];
      if (label === null || op === null || op === undefined || literal === null) throw this.unsupported(m);
      matchers.push({ label: this.src(label), op: op.name, value: unquote(this.src(literal)) });
    }
    if ((n.getChild('LabelMatchers')?.getChildren('QuotedLabelMatcher').length ?? 0) > 0) throw this.unsupported(n);
    const tests = matchers.map((m) => {
      const re = m.op === 'EqlRegex' || m.op === 'NeqRegex' ? new RegExp(`^(?:${m.value})$`) : undefined;
      const hit = (v: string): boolean => (re !== undefined ? re.test(v) : v === m.value);
      return (labels: Labels): boolean => (m.op === 'Neq' || m.op === 'NeqRegex' ? !hit(labels[m.label] ?? '') : hit(labels[m.label] ?? ''));
    });
    const out: RangeSeries[] = [];
    for (const spec of this.series) {
      for (const pod of this.pods) {
        const labels: Labels = { __name__: spec.name, namespace: pod.namespace, pod: pod.name, ...spec.labels };
        if (tests.every((t) => t(labels))) out.push({ labels, spec, value: valueFor(spec, pod), runningSince: pod.runningSince });
      }
    }
    return out;
  }

  private call(n: SyntaxNode): Value {
    const fn = this.src(n.getChild('FunctionIdentifier') as SyntaxNode);
    const args = n.getChild('FunctionCallBody')?.getChildren('MatrixSelector') ?? [];
    const range = args[0];
    if (args.length !== 1 || range === undefined) throw this.unsupported(n);
    const rangeSeconds = parseGoDuration(this.src(range.getChild('DurationExpr') as SyntaxNode)) / 1000;
    const series = this.select(range.getChild('VectorSelector') as SyntaxNode);
    const perSecond = (s: RangeSeries): number => (s.spec.type === 'gauge' ? 0 : s.value);
    const fns: Record<string, (s: RangeSeries) => number> = {
      rate: perSecond,
      irate: perSecond,
      increase: (s) => perSecond(s) * rangeSeconds,
      avg_over_time: (s) => s.value,
      min_over_time: (s) => s.value,
      max_over_time: (s) => s.value,
      last_over_time: (s) => s.value,
    };
    const f = fns[fn];
    if (f === undefined) throw new QueryError(`the simulated Prometheus does not evaluate ${fn}()`);
    return { kind: 'vector', samples: series.map((s) => ({ labels: withoutName(s.labels), value: f(s) })) };
  }

  private aggregate(n: SyntaxNode): Value {
    const op = this.src(n.getChild('AggregateOp') as SyntaxNode);
    const reduce = AGGREGATES[op];
    const body = n.getChild('FunctionCallBody')?.firstChild;
    if (reduce === undefined || body === null || body === undefined) throw this.unsupported(n);
    const inner = this.eval(body);
    if (inner.kind !== 'vector') throw new QueryError(`${op}() takes a vector`);
    const modifier = n.getChild('AggregateModifier');
    const grouping = (modifier?.getChild('GroupingLabels')?.getChildren('LabelName') ?? []).map((l) => this.src(l));
    const without = modifier?.getChild('Without') !== null && modifier !== null;
    const groups = new Map<string, { labels: Labels; values: number[] }>();
    for (const s of inner.samples) {
      const labels = Object.fromEntries(Object.entries(withoutName(s.labels)).filter(([k]) => (without ? !grouping.includes(k) : grouping.includes(k))));
      const key = signature(labels);
      const g = groups.get(key) ?? { labels, values: [] };
      g.values.push(s.value);
      groups.set(key, g);
    }
    return { kind: 'vector', samples: [...groups.values()].map((g) => ({ labels: g.labels, value: reduce(g.values) })) };
  }

  private binary(n: SyntaxNode): Value {
    const [left, op, right] = [n.firstChild, n.firstChild?.nextSibling, n.lastChild];
    const apply = op === null || op === undefined ? undefined : ARITHMETIC[op.name];
    if (left === null || right === null || apply === undefined || n.getChild('BinModifiers') !== null) throw this.unsupported(n);
    const a = this.eval(left);
    const b = this.eval(right);
    if (a.kind === 'scalar' && b.kind === 'scalar') return { kind: 'scalar', value: apply(a.value, b.value) };
    if (a.kind === 'scalar' && b.kind === 'vector') return { kind: 'vector', samples: b.samples.map((s) => ({ labels: withoutName(s.labels), value: apply(a.value, s.value) })) };
    if (a.kind === 'vector' && b.kind === 'scalar') return { kind: 'vector', samples: a.samples.map((s) => ({ labels: withoutName(s.labels), value: apply(s.value, b.value) })) };
    const rights = new Map((b as Extract<Value, { kind: 'vector' }>).samples.map((s) => [signature(withoutName(s.labels)), s.value]));
    const samples: Sample[] = [];
    for (const s of (a as Extract<Value, { kind: 'vector' }>).samples) {
      const other = rights.get(signature(withoutName(s.labels)));
      if (other !== undefined) samples.push({ labels: withoutName(s.labels), value: apply(s.value, other) });
    }
    return { kind: 'vector', samples };
  }
}
