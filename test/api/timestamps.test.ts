// fromTimestamp / toTimestamp: RFC 3339 in and out, the same answer however often asked.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fromTimestamp, toTimestamp } from '../../src/api/types.js';

describe('fromTimestamp', () => {
  it('parses RFC 3339 and gives the same instant when asked again', () => {
    const t = Date.UTC(2026, 10, 25, 12, 0, 1);
    assert.equal(fromTimestamp('2026-11-25T12:00:01Z'), t);
    assert.equal(fromTimestamp('2026-11-25T12:00:01Z'), t);
    assert.equal(fromTimestamp(toTimestamp(t)), t);
  });

  it('is undefined for missing and unparsable text, the second time too', () => {
    for (const text of [undefined, null, '', 'yesterday', 'yesterday']) assert.equal(fromTimestamp(text), undefined);
  });
});
