// `ordinal validate` against the contract table of pod templates (template-cases.ts), in both APIs, and the
// table against the rule table it must cover: every rule of validation/template-rules.ts has an invalid
// template that names its field, and is on the CRD's node for it, so a rule cannot be added to one side of
// the door unchecked (kube-apiserver meets the same table in test/e2e/template-contract.test.ts). The CRD's quantity pattern is held to the
// controller's quantity parser on random strings.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { defaultFeatures } from '../../src/api/features.js';
import { QUANTITY_PATTERN } from '../../src/api/validation/field-rules.js';
import { parseQuantity } from '../../src/api/validation/quantity.js';
import { RULE_SCOPES } from '../../src/api/validation/template-rules.js';
import type { Schema } from '../../src/api/schema/schema-dsl.js';
import { validateObject } from '../../src/cli/commands/validate.js';
import { rootSchema } from '../../src/cli/manifests/crd.js';
import { checkProperty } from '../property-seed.js';
import { INVALID_TEMPLATES, templateCaseSet, VALID_TEMPLATES, type TemplateCase } from './template-cases.js';

const features = defaultFeatures();
const API_VERSIONS = ['apps/v1', 'apps.ordinal.dev/v1'];

function validate(c: TemplateCase, apiVersion: string) {
  const set = { ...templateCaseSet(c, 'ns', 'web'), apiVersion };
  return validateObject('cases.yaml', { where: 'document 1', value: set }, features);
}

describe('ordinal validate agrees with the contract table of pod templates', () => {
  it('has at least 40 invalid templates', () => assert.ok(INVALID_TEMPLATES.length >= 40, `${INVALID_TEMPLATES.length}`));
  for (const apiVersion of API_VERSIONS) {
    for (const c of VALID_TEMPLATES) {
      it(`accepts ${c.desc} (${apiVersion})`, () => assert.deepEqual(validate(c, apiVersion).issues, []));
    }
    for (const c of INVALID_TEMPLATES) {
      it(`refuses ${c.desc} at ${c.path} (${apiVersion})`, () => {
        const r = validate(c, apiVersion);
        assert.equal(r.outcome, 'invalid');
        assert.ok(r.issues.some((i) => i.path === c.path), `want ${c.path} in ${r.issues.map((i) => i.message).join('; ')}`);
      });
    }
  }
});

/** The paths a rule's field has in its scope's places: `containers[].ports[]` → containers[N].ports[N].name. */
function fieldPattern(at: string, field: string, eachValue: boolean): RegExp {
  const place = at.split('.').filter(Boolean).map((p) => p.replace('[]', '\\[\\d+\\]')).join('\\.');
  const name = field.replaceAll('.', '\\.') + (eachValue ? '\\[[^\\]]+\\]' : '');
  return new RegExp(`^spec\\.template\\.spec\\.${place ? `${place}\\.` : ''}${name}$`);
}

describe('the contract table covers the rule table', () => {
  for (const scope of RULE_SCOPES) {
    for (const rule of scope.rules) {
      it(`has an invalid template for the ${scope.name}'s ${rule.field}`, () => {
        const patterns = scope.at.map((at) => fieldPattern(at, rule.field, rule.eachValue === true));
        assert.ok(INVALID_TEMPLATES.some((c) => patterns.some((p) => p.test(c.path ?? ''))), `no case at ${patterns.join(' or ')}`);
      });
    }
  }
});

/** The CRD's node at a scope-style place under the pod template's spec. */
function crdNode(at: string): Schema {
  let node = (rootSchema.properties!.spec!.properties!.template!.properties!.spec)!;
  for (const part of at ? at.split('.') : []) {
    const prop = node.properties![part.replace('[]', '')]!;
    node = part.endsWith('[]') ? prop.items! : prop;
  }
  return node;
}

describe('the CRD carries every rule of the table, on the node the controller checks', () => {
  for (const scope of RULE_SCOPES) {
    for (const at of scope.at) {
      for (const rule of scope.rules) {
        it(`spec.template.spec${at ? `.${at}` : ''}: ${rule.field}`, () => {
          const rules = crdNode(at)['x-kubernetes-validations'] ?? [];
          const requiredRule = rules.find((r) => r.fieldPath === `.${rule.field}` && r.reason === 'FieldValueRequired');
          assert.equal(requiredRule !== undefined, rule.required === true && rule.defaulted !== true, 'Required rule on the parent iff required and not defaulted');
          if (!rule.kind) return;
          const field = crdNode(at ? `${at}.${rule.field}` : rule.field);
          const target = rule.eachValue ? field.additionalProperties! : field;
          for (const c of rule.kind.cel) {
            assert.ok(target['x-kubernetes-validations']?.some((r) => r.rule.includes(c.rule) && r.message === c.message), `CEL ${c.rule}`);
          }
          for (const [k, v] of Object.entries(rule.kind.schema ?? {})) assert.deepEqual(target[k as keyof Schema], v, k);
        });
      }
    }
  }
});

describe('QUANTITY_PATTERN (the CRD) agrees with parseQuantity (the controller)', () => {
  const verdict = (s: string): boolean => {
    const parsed = parseQuantity(s.trim());
    return !('error' in parsed) && !parsed.negative;
  };
  const pattern = new RegExp(QUANTITY_PATTERN);
  const chars = fc.constantFrom(...'0123456789.+-eEinumkKMGTPi x'.split(''));
  it('on random strings of quantity characters', () => {
    checkProperty(fc.property(fc.string({ unit: chars, minLength: 1, maxLength: 8 }), (s) => pattern.test(s) === verdict(s)), { numRuns: 3000 });
  });
  it('on well-known spellings', () => {
    for (const s of ['1', '0.5', '500m', '1Gi', '1e3', '1E', '.5', '1.', '-0', '+1.5M', ' 2Gi ', '1x', '-1', '1e', '1Kii', '1GiB', '', 'Ki', '-']) {
      assert.equal(pattern.test(s), verdict(s), JSON.stringify(s));
    }
  });
});
