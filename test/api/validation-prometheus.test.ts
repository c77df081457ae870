// Prometheus analyses (validation/prometheus-analysis.ts) of a step and of the whole rollout: Forbidden in
// apps/v1; in apps.ordinal.dev/v1 every field checked with its path and message, the CEL successCondition
// compiled by the library that evaluates it.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EXTENSION_ONLY } from '../../src/api/validation/index.js';
import { compileCondition } from '../../src/api/success-condition.js';
import { createMessages, validOrdinalSet, validSet } from './fixtures.js';

type Row = [name: string, fields: Record<string, unknown>, want: string[]];
const RU = 'spec.updateStrategy.rollingUpdate';
const P = `${RU}.steps[0].analysis.prometheus`;
const BG = `${RU}.analysis`;
const BASE = { address: 'http://prometheus.monitoring:9090', query: 'sum(rate(errors_total{pod=~"{{pods}}"}[1m]))', successCondition: 'result < 0.05' };
const step = (fields: Record<string, unknown>): Record<string, unknown> => ({ [`${RU}.steps`]: [{ replicas: 1, analysis: { prometheus: { ...BASE, ...fields } } }] });
const background = (fields: Record<string, unknown>): Record<string, unknown> => ({ [BG]: { prometheus: { ...BASE, ...fields } } });

describe('validateStatefulSet: rollingUpdate.analysis in apps/v1 is Forbidden', () => {
  it('forbids the background analysis', () => assert.deepEqual(createMessages(background({}), validSet()), [`${BG}: Forbidden: ${EXTENSION_ONLY}`]));
});

describe('validateStatefulSet: prometheus analyses in apps.ordinal.dev/v1', () => {
  const rows: Row[] = [
    ['a step analysis', step({ baselineQuery: 'sum(rate(errors_total{pod=~"{{pods}}",rev="{{baselineRevision}}"}[1m]))', successCondition: 'result <= baseline * 1.5', noDataPolicy: 'Fail', errorPolicy: 'Ignore', count: 3, failureLimit: 1, interval: '30s', timeout: '2s' }), []],
    ['a background analysis', background({ noDataPolicy: 'Pause', interval: '1m' }), []],
    ['without address', step({ address: undefined }), [`${P}.address: Required value`]],
    ['an address without a scheme', step({ address: 'prometheus:9090' }), [`${P}.address: Invalid value: "prometheus:9090": must be an http:// or https:// URL`]],
    ['without query', step({ query: undefined }), [`${P}.query: Required value`]],
    ['a blank query', step({ query: '  ' }), [`${P}.query: Required value`]],
    ['an unknown placeholder', step({ query: 'up{pod="{{pod}}"}' }), [`${P}.query: Invalid value: "up{pod=\\"{{pod}}\\"}": unknown placeholder {{pod}}: a query may use {{revision}}, {{baselineRevision}}, {{namespace}}, {{set}}, {{pods}}`]],
    ['a placeholder with spaces', step({ query: 'up{namespace="{{ namespace }}"}' }), []],
    ['without successCondition', step({ successCondition: undefined }), [`${P}.successCondition: Required value`]],
    ['a successCondition that does not parse', step({ successCondition: 'result <' }), [`${P}.successCondition: Invalid value: "result <": not a CEL expression: <input>:1:8: found < but expecting end of input`]],
    ['baseline without a baselineQuery', step({ successCondition: 'result <= baseline' }), [`${P}.successCondition: Invalid value: "result <= baseline": refers to a variable other than result (baseline needs a baselineQuery)`]],
    ['a successCondition that is not a bool', step({ successCondition: 'result * 2.0' }), [`${P}.successCondition: Invalid value: "result * 2.0": evaluates to number, not a bool`]],
    ['int arithmetic on a double', step({ successCondition: 'result * 2 < 1.0' }), [`${P}.successCondition: Invalid value: "result * 2 < 1.0": found no matching overload for '_*_' applied to '(double, int)'`]],
    ['an unknown noDataPolicy', step({ noDataPolicy: 'Retry' }), [`${P}.noDataPolicy: Unsupported value: "Retry": supported values: "Fail", "Pause", "Ignore"`]],
    ['a count of 0', step({ count: 0 }), [`${P}.count: Invalid value: 0: must be greater than or equal to 1`]],
    ['a background count', background({ count: 2 }), [`${BG}.prometheus.count: Forbidden: the rollout's analysis runs until the rollout completes: count is a step's`]],
    ['a background analysis with both checks', { [BG]: { http: { url: 'http://a.example' }, prometheus: BASE } }, [`${BG}: Invalid value: {"http":{"url":"http://a.example"},"prometheus":${JSON.stringify(BASE)}}: exactly one of http and prometheus`]],
  ];
  for (const [name, fields, want] of rows) it(name, () => assert.deepEqual(createMessages(fields, validOrdinalSet()), want));
});

describe('compileCondition (CEL by @bufbuild/cel)', () => {
  it('judges result against baseline', () => {
    const c = compileCondition('result <= baseline * 1.5', true);
    assert.ok(c.ok);
    assert.equal(c.program({ result: 0.03, baseline: 0.01 }), false);
    assert.equal(c.program({ result: 0.012, baseline: 0.01 }), true);
  });
  it('compares a double with an int literal', () => {
    const c = compileCondition('result < 1', false);
    assert.ok(c.ok);
    assert.equal(c.program({ result: 0.5 }), true);
  });
  it('reports a runtime error of a path the trial run skipped as an Error, not a verdict', () => {
    const c = compileCondition("result > 2.0 && result < 'x'", false);
    assert.ok(c.ok);
    assert.ok(c.program({ result: 3 }) instanceof Error);
  });
});
