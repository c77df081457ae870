import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatSecondsLeft, humanDuration, parseGoDuration } from '../../src/cli/explain/durations.js';

const S = 1000;

describe('humanDuration (kubectl AGE)', () => {
  const cases: [number, string][] = [
    [-5 * S, '<invalid>'],
    [-500, '0s'],
    [0, '0s'],
    [119 * S, '119s'],
    [120 * S, '2m'],
    [125 * S, '2m5s'],
    [10 * 60 * S, '10m'],
    [179 * 60 * S, '179m'],
    [3 * 3600 * S, '3h'],
    [3 * 3600 * S + 5 * 60 * S, '3h5m'],
    [8 * 3600 * S, '8h'],
    [47 * 3600 * S, '47h'],
    [50 * 3600 * S, '2d2h'],
    [30 * 24 * 3600 * S, '30d'],
    [3 * 365 * 24 * 3600 * S + 24 * 3600 * S, '3y1d'],
  ];
  for (const [ms, want] of cases) {
    it(`prints ${ms} ms as ${want}`, () => assert.equal(humanDuration(ms), want));
  }
});

describe('formatSecondsLeft', () => {
  it('rounds up so that a pending wait never reads 0 s', () => {
    assert.equal(formatSecondsLeft(11_001), '12 s');
    assert.equal(formatSecondsLeft(12_000), '12 s');
    assert.equal(formatSecondsLeft(1), '1 s');
  });
  it('never prints a negative wait', () => assert.equal(formatSecondsLeft(-3000), '0 s'));
});

describe('parseGoDuration (--timeout)', () => {
  const ok: [string, number][] = [
    ['0', 0],
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h2m3s', 3_723_000],
    ['1.5h', 5_400_000],
    ['250ms', 250],
  ];
  for (const [text, ms] of ok) it(`reads ${text} as ${ms} ms`, () => assert.equal(parseGoDuration(text), ms));
  it('refuses a number without a unit, as Go does', () => assert.throws(() => parseGoDuration('30'), /missing unit in duration "30"/));
  it('refuses garbage', () => {
    assert.throws(() => parseGoDuration('5 minutes'), /invalid duration/);
    assert.throws(() => parseGoDuration(''), /invalid duration/);
  });
});
