import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidError, isInvalid, type FieldIssue } from '../../src/api/errors.js';
import { formatInvalid, formatIssue, validationError } from '../../src/api/validation/index.js';
import { MAX_RENDERED, renderValue } from '../../src/api/validation/json.js';

describe('formatIssue (field.Error.Error)', () => {
  const rows: Array<[FieldIssue, string]> = [
    [{ path: 'spec.replicas', type: 'Invalid', value: -1, detail: 'must be greater than or equal to 0' }, 'spec.replicas: Invalid value: -1: must be greater than or equal to 0'],
    [{ path: 'spec.selector', type: 'Required', detail: '' }, 'spec.selector: Required value'],
    [{ path: 'metadata.name', type: 'Required', detail: 'name or generateName is required' }, 'metadata.name: Required value: name or generateName is required'],
    [{ path: 'spec', type: 'Forbidden', detail: 'nope' }, 'spec: Forbidden: nope'],
    [{ path: 'a', type: 'NotSupported', value: 'Never', detail: 'supported values: "Always"' }, 'a: Unsupported value: "Never": supported values: "Always"'],
    [{ path: 'a[1].name', type: 'Duplicate', value: 'x', detail: '' }, 'a[1].name: Duplicate value: "x"'],
    [{ path: 'metadata.annotations', type: 'TooLong', detail: 'may not be more than 262144 bytes' }, 'metadata.annotations: Too long: may not be more than 262144 bytes'],
    [{ path: 'a', type: 'TooMany', value: 5, detail: 'must have at most 3 items' }, 'a: Too many: 5: must have at most 3 items'],
    [{ path: 'a', type: 'Invalid', value: null, detail: 'd' }, 'a: Invalid value: null: d'],
    [{ path: 'a', type: 'Invalid', value: { k: ['v', 1, true] }, detail: 'd' }, 'a: Invalid value: {"k":["v",1,true]}: d'],
    [{ path: 'a', type: 'Invalid', value: '', detail: '' }, 'a: Invalid value: ""'],
    [{ path: 'a', type: 'Invalid', detail: 'no value given' }, 'a: Invalid value: no value given'],
  ];
  for (const [issue, want] of rows) it(want, () => assert.equal(formatIssue(issue), want));
});

describe('formatInvalid (apierrors.NewInvalid message)', () => {
  const neg: FieldIssue = { path: 'spec.replicas', type: 'Invalid', value: -1, detail: 'must be greater than or equal to 0' };
  const sel: FieldIssue = { path: 'spec.selector', type: 'Required', detail: '' };

  it('prints one issue without brackets', () => {
    assert.equal(formatInvalid('StatefulSet', 'apps', 'web', [neg]), 'StatefulSet.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  });
  it('brackets and comma-joins several', () => {
    assert.equal(
      formatInvalid('StatefulSet', 'apps', 'web', [neg, sel]),
      'StatefulSet.apps "web" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.selector: Required value]',
    );
  });
  it('drops duplicate messages (ToAggregate)', () => {
    assert.equal(formatInvalid('StatefulSet', 'apps', 'web', [sel, sel]), 'StatefulSet.apps "web" is invalid: spec.selector: Required value');
  });
  it('qualifies the kind with the group, none for the core group', () => {
    assert.match(formatInvalid('StatefulSet', 'apps.ordinal.dev', 'w', [sel]), /^StatefulSet\.apps\.ordinal\.dev "w" is invalid: /);
    assert.match(formatInvalid('Pod', '', 'p', [sel]), /^Pod "p" is invalid: /);
  });
  it('validationError is a 422 InvalidError carrying the issues', () => {
    const err = validationError('StatefulSet', 'apps', 'web', [neg, sel]);
    assert.ok(err instanceof InvalidError);
    assert.ok(isInvalid(err));
    assert.equal(err.code, 422);
    assert.deepEqual(err.issues, [neg, sel]);
    assert.equal(err.message, formatInvalid('StatefulSet', 'apps', 'web', [neg, sel]));
  });
});

describe('renderValue', () => {
  it('prints numbers and booleans plainly, strings quoted, nil as null', () => {
    assert.deepEqual([renderValue(3), renderValue(true), renderValue('a"b'), renderValue(undefined), renderValue(null)], ['3', 'true', '"a\\"b"', 'null', 'null']);
  });
  it('cuts huge values instead of printing megabytes', () => {
    const big = renderValue('x'.repeat(5_000_000));
    assert.ok(big.length <= MAX_RENDERED + 8, `rendered ${big.length} chars`);
    assert.ok(big.endsWith('...'));
    const wide = renderValue(Array.from({ length: 100_000 }, (_, i) => ({ i })));
    assert.ok(wide.length <= MAX_RENDERED + 8 && wide.startsWith('[{"i":0}'));
  });
});
