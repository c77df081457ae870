import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { defaultStatefulSet } from '../../src/api/defaults.js';
import type { FieldIssue } from '../../src/api/errors.js';
import { prepareForCreate, prepareForStatusUpdate, prepareForUpdate } from '../../src/api/strategy.js';
import type { StatefulSet } from '../../src/api/types.js';
import {
  formatInvalid,
  MAX_ISSUES,
  validateStatefulSet,
  validateStatefulSetStatusUpdate,
  validateStatefulSetUpdate,
} from '../../src/api/validation/index.js';
import { checkProperty } from '../property-seed.js';
import { features, gates, setPath, validOrdinalSet, validSet } from './fixtures.js';

const ROOT = /^(metadata|spec|status)(\.|\[|$)/;
const allGatesOff = gates({ MaxUnavailableStatefulSet: false, StatefulSetRecreateStrategy: false, EnforcedRollingUpdateInStatefulSet: false });

function assertWellFormed(issues: FieldIssue[]): void {
  assert.ok(Array.isArray(issues) && issues.length <= MAX_ISSUES);
  for (const issue of issues) {
    assert.ok(typeof issue.path === 'string' && ROOT.test(issue.path), `bad path ${JSON.stringify(issue.path)}`);
    assert.equal(typeof issue.detail, 'string');
  }
  assert.equal(typeof formatInvalid('StatefulSet', 'apps', 'x', issues), 'string');
}

/** Runs every entry point on `obj` in every role it can play; none may throw. */
function exercise(obj: unknown): void {
  const stored = validSet();
  for (const f of [features, allGatesOff]) {
    assertWellFormed(validateStatefulSet(obj, f));
    assertWellFormed(validateStatefulSetUpdate(obj, stored, f));
    assertWellFormed(validateStatefulSetUpdate(stored, obj as StatefulSet, f));
    const defaulted = defaultStatefulSet(obj as StatefulSet, f);
    assertWellFormed(validateStatefulSet(defaulted, f));
    const created = prepareForCreate(defaulted, undefined, f);
    assertWellFormed(validateStatefulSet(created, f));
    assertWellFormed(validateStatefulSetUpdate(prepareForUpdate(defaulted, stored, f), stored, f));
    prepareForUpdate(stored, obj as StatefulSet, f);
  }
  assertWellFormed(validateStatefulSetStatusUpdate(obj, stored));
  assertWellFormed(validateStatefulSetStatusUpdate(stored, obj as StatefulSet));
  prepareForStatusUpdate(obj as StatefulSet, stored);
}

/** Keys a JSON document cannot hold as data: an array's length, and the prototype accessors. */
const UNSETTABLE = new Set(['length', '__proto__', 'constructor', 'prototype']);

/** Every path (objects and arrays) inside a JSON value, dotted like the fixtures' setPath. */
function pathsOf(v: unknown, prefix = ''): string[] {
  if (typeof v !== 'object' || v === null) return [];
  const out: string[] = [];
  for (const [k, child] of Object.entries(v)) {
    const p = prefix ? `${prefix}.${k}` : k;
    out.push(p, ...pathsOf(child, p));
  }
  return out;
}

const basePaths = [...new Set([...pathsOf(validSet()), ...pathsOf(validOrdinalSet()), 'status', 'status.replicas', 'status.collisionCount'])];
const mutation = fc.record({
  path: fc.oneof(fc.constantFrom(...basePaths), fc.constantFrom(...basePaths).chain((p) => fc.string({ maxLength: 8 }).filter((k) => !UNSETTABLE.has(k)).map((k) => `${p}.${k}`))),
  value: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(undefined), fc.integer(), fc.double(), fc.string()),
});

describe('validation and defaulting never throw (fast-check)', () => {
  it('on any value (fc.anything)', () => {
    checkProperty(fc.property(fc.anything(), (obj) => exercise(obj)), { numRuns: 300 });
  });

  it('on any JSON value (fc.jsonValue)', () => {
    checkProperty(fc.property(fc.jsonValue(), (obj) => exercise(obj)), { numRuns: 300 });
  });

  it('on random mutations of a valid StatefulSet', () => {
    const arb = fc.record({ ordinal: fc.boolean(), mutations: fc.array(mutation, { minLength: 1, maxLength: 5 }) });
    checkProperty(
      fc.property(arb, ({ ordinal, mutations }) => {
        const set = ordinal ? validOrdinalSet() : validSet();
        for (const { path, value } of mutations) setPath(set, path, value);
        exercise(set);
      }),
      { numRuns: 500 },
    );
  });
});

describe('valid parameters stay valid (fast-check)', () => {
  it('any in-range replicas, minReadySeconds, partition, maxUnavailable and ordinals.start give no issues', () => {
    const arb = fc.record({
      replicas: fc.integer({ min: 0, max: 2147483647 }),
      minReadySeconds: fc.integer({ min: 0, max: 2147483647 }),
      partition: fc.integer({ min: 0, max: 2147483647 }),
      start: fc.integer({ min: 0, max: 2147483647 }),
      maxUnavailable: fc.oneof(fc.integer({ min: 1, max: 2147483647 }), fc.integer({ min: 1, max: 100 }).map((n) => `${n}%`)),
    });
    checkProperty(
      fc.property(arb, (p) => {
        const set = validSet();
        setPath(set, 'spec.replicas', p.replicas);
        setPath(set, 'spec.minReadySeconds', p.minReadySeconds);
        setPath(set, 'spec.ordinals', { start: p.start });
        setPath(set, 'spec.updateStrategy.rollingUpdate', { partition: p.partition, maxUnavailable: p.maxUnavailable });
        assert.deepEqual(validateStatefulSet(set, features), []);
        assert.deepEqual(validateStatefulSetUpdate(set, validSet(), features), []);
      }),
      { numRuns: 200 },
    );
  });
});
