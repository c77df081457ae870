// The controller-side validation against the shared table of crd-cases.ts (the CRD meets the same table
// on a real kube-apiserver in test/e2e/kube-crd.test.ts), and the CRD's schema defaults against the
// controller's defaulting, so an object stored through the CRD reads the same as a defaulted apps/v1 one.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultStatefulSet } from '../../src/api/defaults.js';
import { defaultFeatures } from '../../src/api/features.js';
import type { StatefulSet } from '../../src/api/types.js';
import { validateStatefulSet, validateStatefulSetUpdate } from '../../src/api/validation/index.js';
import { formatIssue } from '../../src/api/validation/field.js';
import { rootSchema } from '../../src/cli/manifests/crd.js';
import type { Schema } from '../../src/api/schema/schema-dsl.js';
import { baseSet, CREATE_CASES, UPDATE_CASES } from './crd-cases.js';

const features = defaultFeatures();
const build = (mutate: (s: StatefulSet) => void): StatefulSet => {
  const s = structuredClone(baseSet('ns'));
  mutate(s);
  return s;
};

describe('validateStatefulSet agrees with the CRD table', () => {
  for (const c of CREATE_CASES) {
    it(`${c.path ? 'rejects' : 'accepts'} ${c.desc}${c.path ? ` at ${c.path}` : ''}`, () => {
      const issues = validateStatefulSet(defaultStatefulSet(build(c.mutate), features), features);
      if (!c.path) return assert.deepEqual(issues, []);
      assert.ok(issues.some((i) => i.path === c.path), `want an issue at ${c.path}, got ${JSON.stringify(issues)}`);
    });
  }
  for (const c of UPDATE_CASES) {
    it(`${c.path ? 'forbids' : 'allows'} an update with ${c.desc}`, () => {
      const stored = build(c.base ?? (() => {}));
      const prev = defaultStatefulSet(stored, features);
      const changed = structuredClone(stored);
      c.mutate(changed);
      const next = defaultStatefulSet(changed, features);
      const issues = validateStatefulSetUpdate(next, prev, features);
      if (!c.path) return assert.deepEqual(issues, []);
      assert.ok(issues.some((i) => i.path === c.path), `want an issue at ${c.path}, got ${JSON.stringify(issues)}`);
      if (c.says) assert.ok(issues.some((i) => formatIssue(i).includes(c.says!)), `want "${c.says}" in ${issues.map(formatIssue).join('; ')}`);
    });
  }
});

/** apiextensions' structural defaulting: a missing property with a default gets it, then nested defaults apply. */
function applyDefaults(value: unknown, schema: Schema): unknown {
  if (Array.isArray(value)) return schema.items ? value.map((v) => applyDefaults(v, schema.items!)) : value;
  if (!value || typeof value !== 'object' || !schema.properties) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [k, prop] of Object.entries(schema.properties)) {
    if (out[k] === undefined && prop.default !== undefined) out[k] = structuredClone(prop.default);
    if (out[k] !== undefined) out[k] = applyDefaults(out[k], prop);
  }
  return out;
}

/** The spec without what the CRD keeps as written (the pod template and claim templates are defaulted on read). */
function specOf(set: unknown): Record<string, unknown> {
  const { template: _t, volumeClaimTemplates: _v, ...rest } = (set as StatefulSet).spec;
  return rest;
}

describe('CRD schema defaults', () => {
  for (const c of CREATE_CASES.filter((x) => !x.path)) {
    it(`match defaultStatefulSet for ${c.desc}`, () => {
      const obj = build(c.mutate);
      assert.deepEqual(specOf(applyDefaults(obj, rootSchema)), specOf(defaultStatefulSet(obj, features)));
    });
  }
});
