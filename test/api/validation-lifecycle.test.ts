// spec.lifecycle.preUpdate (validation/lifecycle.ts): Forbidden in apps/v1; in apps.ordinal.dev/v1 every field
// checked with its path and message (the CRD's verdicts are held to the same table: test/deploy/crd-cases.ts).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EXTENSION_ONLY } from '../../src/api/validation/index.js';
import { createMessages, validOrdinalSet, validSet } from './fixtures.js';

const L = 'spec.lifecycle';
const H = `${L}.preUpdate`;
type Row = [name: string, hook: unknown, want: string[]];

describe('validateStatefulSet: spec.lifecycle', () => {
  it('is Forbidden in apps/v1', () => {
    assert.deepEqual(createMessages({ [L]: { preUpdate: { http: { url: 'http://a.example' } } } }, validSet()), [`${L}: Forbidden: ${EXTENSION_ONLY}`]);
  });
  const rows: Row[] = [
    ['an http hook with every field', { http: { url: 'https://a.example/switch', expectedStatus: 204, timeoutSeconds: 3 }, timeoutSeconds: 60, failurePolicy: 'Ignore' }, []],
    ['a labels handler', { labelsHandler: { 'db.example/switched-over': 'true' } }, []],
    ['both handlers', { http: { url: 'http://a.example' }, labelsHandler: { a: 'b' } }, [`${H}: Invalid value: {"http":{"url":"http://a.example"},"labelsHandler":{"a":"b"}}: exactly one of http and labelsHandler`]],
    ['an http url of another scheme', { http: { url: 'ftp://a.example' } }, [`${H}.http.url: Invalid value: "ftp://a.example": must be an http:// or https:// URL`]],
    ['no url', { http: {} }, [`${H}.http.url: Required value`]],
    ['a timeout of 0', { http: { url: 'http://a.example' }, timeoutSeconds: 0 }, [`${H}.timeoutSeconds: Invalid value: 0: must be greater than or equal to 1`]],
    ['an unknown failure policy', { http: { url: 'http://a.example' }, failurePolicy: 'Retry' }, [`${H}.failurePolicy: Unsupported value: "Retry": supported values: "Fail", "Ignore"`]],
    ['a label value too long', { labelsHandler: { a: 'x'.repeat(64) } }, [`${H}.labelsHandler[a]: Invalid value: "${'x'.repeat(64)}": must be no more than 63 characters`]],
    ['a label value not a string', { labelsHandler: { a: 1 } }, [`${H}.labelsHandler[a]: Invalid value: 1: must be of type string`]],
    ['the controller\'s own label', { labelsHandler: { 'apps.ordinal.dev/lifecycle-state': 'x' } }, [`${H}.labelsHandler: Invalid value: {"apps.ordinal.dev/lifecycle-state":"x"}: must not be apps.ordinal.dev/lifecycle-state: the controller sets it`]],
  ];
  for (const [name, hook, want] of rows) it(name, () => assert.deepEqual(createMessages({ [L]: { preUpdate: hook } }, validOrdinalSet()), want));
});
