import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseRequirements,
  parseSelectorString,
  requirementToString,
  selectorMatches,
  selectorToString,
  SelectorError,
} from '../../src/api/labels.js';
import type { LabelSelector } from '../../src/api/types.js';

const web = { app: 'web', tier: 'a' };

describe('selectorMatches (LabelSelectorAsSelector + Matches)', () => {
  const table: Array<[string, LabelSelector | undefined, Record<string, string> | undefined, boolean]> = [
    ['an empty selector matches everything', {}, web, true],
    ['an empty selector matches unlabelled pods', {}, undefined, true],
    ['a nil selector matches nothing', undefined, web, false],
    ['matchLabels equal', { matchLabels: { app: 'web' } }, web, true],
    ['matchLabels differ', { matchLabels: { app: 'db' } }, web, false],
    ['matchLabels key missing', { matchLabels: { zone: 'x' } }, web, false],
    ['In hit', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] }, web, true],
    ['In miss', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['b'] }] }, web, false],
    ['In with the key absent', { matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] }, web, false],
    ['NotIn with the key absent matches', { matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['b'] }] }, web, true],
    ['NotIn hit excludes', { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['a'] }] }, web, false],
    ['Exists', { matchExpressions: [{ key: 'tier', operator: 'Exists' }] }, web, true],
    ['Exists on a missing key', { matchExpressions: [{ key: 'zone', operator: 'Exists' }] }, web, false],
    ['DoesNotExist', { matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }, web, true],
    ['DoesNotExist on a present key', { matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] }, web, false],
    ['labels and expressions are ANDed', { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['z'] }] }, web, false],
    ['an unknown operator matches nothing', { matchExpressions: [{ key: 'app', operator: 'Like', values: ['w'] }] }, web, false],
    ['In without values is invalid and matches nothing', { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] }, web, false],
    ['Exists with values is invalid', { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['web'] }] }, web, false],
    ['an invalid key is invalid', { matchLabels: { 'bad key': 'x' } }, { 'bad key': 'x' }, false],
    ['a prototype-named key is an ordinary key', { matchLabels: { constructor: 'x' } }, {}, false],
  ];
  for (const [name, sel, labels, want] of table) it(name, () => assert.equal(selectorMatches(sel, labels), want));

  it('never throws on malformed selectors', () => {
    for (const sel of [5, 'x', [], { matchLabels: [] }, { matchExpressions: {} }, { matchExpressions: [null] }, { matchLabels: { a: 1 } }]) {
      assert.equal(selectorMatches(sel as unknown as LabelSelector, web), false);
    }
  });
});

describe('selectorToString', () => {
  const table: Array<[LabelSelector, string]> = [
    [{}, ''],
    [{ matchLabels: { app: 'web' } }, 'app=web'],
    [{ matchLabels: { tier: 'a', app: 'web' } }, 'app=web,tier=a'],
    [{ matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] }, 'tier in (a,b)'],
    [{ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['x'] }] }, 'tier notin (x)'],
    [{ matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] }, '!x'],
    [{ matchExpressions: [{ key: 'x', operator: 'Exists' }] }, 'x'],
    [
      { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }, { key: 'x', operator: 'DoesNotExist' }] },
      'app=web,tier in (a,b),!x',
    ],
  ];
  for (const [sel, want] of table) it(`prints ${JSON.stringify(sel)} as ${JSON.stringify(want)}`, () => assert.equal(selectorToString(sel), want));

  it('throws for a nil or invalid selector rather than select everything', () => {
    assert.throws(() => selectorToString(undefined as unknown as LabelSelector), SelectorError);
    assert.throws(() => selectorToString({ matchExpressions: [{ key: 'a', operator: 'Nope' }] }), SelectorError);
  });

  it('round-trips through parseSelectorString', () => {
    const sel: LabelSelector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['x', 'y'] }] };
    const matcher = parseSelectorString(selectorToString(sel));
    const cases: Array<Record<string, string>> = [web, { app: 'web', tier: 'x' }, { app: 'db' }, {}];
    for (const labels of cases) assert.equal(matcher(labels), selectorMatches(sel, labels));
  });
});

describe('parseSelectorString (labels.Parse)', () => {
  const table: Array<[string, Record<string, string>, boolean]> = [
    ['', web, true],
    ['   ', {}, true],
    ['app=web', web, true],
    ['app==web', web, true],
    ['app=db', web, false],
    ['app!=db', web, true],
    ['app!=web', web, false],
    ['zone!=x', web, true],
    ['app', web, true],
    ['zone', web, false],
    ['!zone', web, true],
    ['!app', web, false],
    ['tier in (a, b)', web, true],
    ['tier in (b)', web, false],
    ['tier notin (b,c)', web, true],
    ['zone notin (b)', web, true],
    ['app=web,tier in (a,b),!x', web, true],
    [' app = web , tier  notin ( a ) ', web, false],
    ['app=', { app: '' }, true],
    ['app=', web, false],
    ['tier in ()', { tier: '' }, true],
    ['tier in (a,)', { tier: '' }, true],
    ['in=x', { in: 'x' }, true],
  ];
  for (const [s, labels, want] of table) {
    it(`${JSON.stringify(s)} on ${JSON.stringify(labels)} → ${want}`, () => assert.equal(parseSelectorString(s)(labels), want));
  }

  const bad = ['app=web,', ',', 'app in', 'app in (a', 'app in a', 'app =(', '!app=web', 'app == == web', 'app web', 'bad key=x', 'app=bad value!', 'a/b/c', 'app>1', '(x)'];
  for (const s of bad) it(`rejects ${JSON.stringify(s)}`, () => assert.throws(() => parseSelectorString(s), SelectorError));

  it('sorts requirements by key and dedups set values, like the String form', () => {
    assert.deepEqual(parseRequirements('z=1,a in (c,b,c)').map(requirementToString), ['a in (b,c)', 'z=1']);
  });
});
