import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compareUtf8, goJsonEncode } from '../../src/api/revision/go-json.js';
import { hashControllerRevision, revisionData } from '../../src/api/revision/hash.js';
import type { StatefulSet } from '../../src/api/types.js';

describe('goJsonEncode', () => {
  it('sorts object keys by UTF-8 bytes, so U+E000 comes before U+1F600 (UTF-16 order is the reverse)', () => {
    assert.equal(goJsonEncode({ '\u{1F600}': 1, '\uE000': 2, b: 3, B: 4 }), '{"B":4,"b":3,"\uE000":2,"\u{1F600}":1}');
  });

  it('sorts keys at every nesting level, including inside arrays', () => {
    assert.equal(goJsonEncode({ z: [{ y: 1, x: { b: 1, a: 2 } }], a: {} }), '{"a":{},"z":[{"x":{"a":2,"b":1},"y":1}]}');
  });

  it('leaves out undefined members and writes undefined array elements as null', () => {
    assert.equal(goJsonEncode({ a: undefined, b: [undefined, 1], c: null }), '{"b":[null,1],"c":null}');
  });

  it('escapes <, > and & as \\u003c, \\u003e and \\u0026 and leaves other printable ASCII alone', () => {
    assert.equal(goJsonEncode('<a href="x">&amp;</a> \'/~\x7f'), '"\\u003ca href=\\"x\\"\\u003e\\u0026amp;\\u003c/a\\u003e \'/~\x7f"');
  });

  it('writes U+2028 and U+2029 escaped and other non-ASCII characters raw', () => {
    assert.equal(goJsonEncode('\u2028é\u2029日\u{1F600}'), '"\\u2028é\\u2029日\u{1F600}"');
  });

  it('uses \\b \\f \\n \\r \\t for those controls and \\u00XX (lower-case hex) for the others', () => {
    assert.equal(goJsonEncode('\b\f\n\r\t\u0000\u001b\u001f'), '"\\b\\f\\n\\r\\t\\u0000\\u001b\\u001f"');
  });

  it('writes a lone surrogate as U+FFFD, as Go does after decoding the same JSON text', () => {
    assert.equal(goJsonEncode('a\uD800b\uDC00'), '"a\uFFFDb\uFFFD"');
    assert.equal(goJsonEncode('\uD83D\uDE00'), '"\u{1F600}"');
  });

  it('formats float64 like Go: exponent below 1e-6 and from 1e21, no exponent padding, -0 kept', () => {
    assert.equal(goJsonEncode([1e21, 1e20, 1e-6, 1e-7, 1.5e-7, -0, 1.0, 0.1]), '[1e+21,100000000000000000000,0.000001,1e-7,1.5e-7,-0,1,0.1]');
  });

  it('throws for values Go cannot encode', () => {
    assert.throws(() => goJsonEncode(NaN), TypeError);
    assert.throws(() => goJsonEncode({ a: Infinity }), TypeError);
    assert.throws(() => goJsonEncode(10n), TypeError);
    assert.throws(() => goJsonEncode({ f: () => 1 }), TypeError);
  });
});

describe('compareUtf8', () => {
  it('orders by code point, prefixes first', () => {
    assert.deepEqual(['b', '\u{1F600}', 'ab', '\uE000', 'a', ''].sort(compareUtf8), ['', 'a', 'ab', 'b', '\uE000', '\u{1F600}']);
    assert.equal(compareUtf8('x', 'x'), 0);
  });
});

describe('revision data is independent of how the input JSON was written', () => {
  const a = `{"metadata":{"name":"web"},"spec":{"template":{"metadata":{"labels":{"app":"web"},"annotations":{"q":"<b>&</b>","u":"é"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`;
  const b = `{"spec":{"template":{"spec":{"containers":[{"image":"i","name":"c"}]},"metadata":{"annotations":{"u":"\\u00e9","q":"\\u003cb\\u003e\\u0026\\u003c/b\\u003e"},"labels":{"app":"web"}}}},"metadata":{"name":"web"}}`;

  it('gives the same bytes and hash for a template differing only in key order and escaping', () => {
    const da = revisionData(JSON.parse(a) as StatefulSet);
    const db = revisionData(JSON.parse(b) as StatefulSet);
    assert.equal(da, db);
    assert.equal(hashControllerRevision(da, 0), hashControllerRevision(db, 0));
    assert.match(da, /\\u003cb\\u003e\\u0026/);
  });

  it('gives different bytes when a value really differs', () => {
    const c = a.replace('"image":"i"', '"image":"j"');
    assert.notEqual(revisionData(JSON.parse(a) as StatefulSet), revisionData(JSON.parse(c) as StatefulSet));
  });
});
