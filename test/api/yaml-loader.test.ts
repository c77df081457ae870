import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadYamlDocuments, MAX_DEPTH, MAX_EXPANDED_NODES, YamlError } from '../../src/api/yaml-loader.js';

const refusal = (text: string): string => {
  try {
    loadYamlDocuments(text);
  } catch (e) {
    assert.ok(e instanceof YamlError, String(e));
    return e.message;
  }
  assert.fail('expected a YamlError');
};

/** "Billion laughs": ten levels of nine aliases each, 9^10 nodes once expanded. */
function aliasBomb(): string {
  const lines = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i < 10; i++) lines.push(`a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(', ')}]`);
  return `${lines.join('\n')}\n`;
}

describe('loadYamlDocuments', () => {
  it('reads several documents, JSON included, and keeps empty ones as null', () => {
    assert.deepEqual(loadYamlDocuments('a: 1\n---\n---\n{"b": [2]}\n'), [{ a: 1 }, null, { b: [2] }]);
  });

  it('refuses a duplicate key with its position and name, as go-yaml words it', () => {
    assert.equal(refusal('spec:\n  replicas: 3\n  selector: {}\n  replicas: 4\n'), '4:3: key "replicas" already set in map');
    assert.equal(refusal('{"a": 1, "a": 2}'), '1:10: key "a" already set in map');
  });

  it('accepts merge keys (<<), as kubectl does', () => {
    assert.deepEqual(loadYamlDocuments('base: &b {app: web}\nlabels: {<<: *b, tier: db}\n'), [{ base: { app: 'web' }, labels: { app: 'web', tier: 'db' } }]);
  });

  it('refuses an alias bomb with a position instead of exhausting memory', () => {
    assert.equal(refusal(aliasBomb()), `7:10: aliases expand to more than ${MAX_EXPANDED_NODES} nodes`);
  });

  it('refuses an alias inside its own anchor (a cycle)', () => {
    assert.equal(refusal('a: &a [1, *a]\n'), '1:11: alias *a is inside its own anchor');
  });

  it('refuses 1,000-deep nesting, flow or block, with a position instead of overflowing the stack', () => {
    assert.equal(refusal(`spec: ${'['.repeat(1000)}${']'.repeat(1000)}\n`), `1:${6 + MAX_DEPTH}: nesting is deeper than ${MAX_DEPTH} levels`);
    assert.match(refusal(`${'- '.repeat(1000)}x\n`), new RegExp(`^1:\\d+: nesting is deeper than ${MAX_DEPTH} levels$`));
    assert.equal(loadYamlDocuments(`${'['.repeat(MAX_DEPTH)}${']'.repeat(MAX_DEPTH)}`).length, 1);
  });

  it('turns __proto__ and constructor keys into own properties that pollute nothing', () => {
    const [doc] = loadYamlDocuments('__proto__: {polluted: true}\nconstructor: {polluted: true}\n') as [Record<string, unknown>];
    assert.deepEqual(Object.keys(doc), ['__proto__', 'constructor']);
    assert.equal(Object.getPrototypeOf(doc), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('refuses a value JSON cannot hold (!!binary, !!set, !!omap, !!timestamp) with its position, instead of passing on bytes or a Set', () => {
    const detail = 'value has no JSON form: a Kubernetes object holds strings, numbers, booleans, lists and maps';
    assert.equal(refusal('kind: StatefulSet\napiVersion: !!binary aGVsbG8=\n'), `2:22: a !!binary ${detail}`);
    assert.equal(refusal('labels: !!set {a: null}\n'), `1:15: a !!set ${detail}`);
    assert.equal(refusal('items: !!omap [{a: 1}]\n'), `1:15: a !!omap ${detail}`);
    assert.equal(refusal('at: !!timestamp 2001-12-14\n'), `1:17: a !!timestamp ${detail}`);
    assert.deepEqual(loadYamlDocuments('a: !!str 3\nb: !!int "4"\n'), [{ a: '3', b: 4 }]);
  });

  it('gives syntax errors a position', () => {
    assert.match(refusal('kind: [unclosed'), /^1:16: /);
  });
});
