// The one YAML (and JSON) loader for every file Ordinal reads: manifests, scenarios. Inputs are untrusted, so
// hostile YAML is refused with a position instead of exhausting the stack or memory:
// - duplicate keys are an error (as kube-apiserver's strict decoding), `<<` merge keys are accepted (as kubectl);
// - nesting is bounded (MAX_DEPTH), checked on the parser's tokens before the tree is composed recursively;
// - alias expansion is bounded (MAX_EXPANDED_NODES, the "billion laughs" attack), and an alias inside its own
//   anchor (a cycle) is refused; the library's own alias limit names no position, so it is replaced by ours;
// - a value JSON cannot hold (`!!binary`, `!!set`, `!!omap`, `!!timestamp`) is refused, so every value is JSON;
// - keys such as `__proto__` become plain own properties (the library builds ordinary objects with
//   defineProperty), so nothing can reach Object.prototype; the strict field check then names them.

import { Composer, isAlias, isMap, isPair, isScalar, isSeq, LineCounter, Parser, type Document, type Node } from 'yaml';

/** Deeper than any Kubernetes object needs, far below what would exhaust the stack while composing. */
export const MAX_DEPTH = 100;
/** Nodes of a document once every alias is expanded (a large manifest has a few thousand). */
export const MAX_EXPANDED_NODES = 1_000_000;

/** A file that is not acceptable YAML: `line:col: message` (1-based, as editors count). */
export class YamlError extends Error {
  override name = 'YamlError';
  constructor(
    readonly line: number,
    readonly col: number,
    readonly reason: string,
  ) {
    super(`${line}:${col}: ${reason}`);
  }
}

interface CstNode {
  type: string;
  offset: number;
  value?: CstNode;
  items?: { key?: CstNode | null; value?: CstNode }[];
}

/** The first collection nested deeper than MAX_DEPTH, by an explicit-stack walk of the parser's tokens. */
function tooDeep(token: CstNode): CstNode | undefined {
  const stack: [CstNode, number][] = [[token, 0]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [node, depth] = next;
    if (node.value) stack.push([node.value, depth]);
    if (!node.items) continue;
    if (depth + 1 > MAX_DEPTH) return node;
    for (const item of node.items) {
      if (item.key) stack.push([item.key, depth + 1]);
      if (item.value) stack.push([item.value, depth + 1]);
    }
  }
  return undefined;
}

/** The YAML 1.1 types the library composes into what JSON cannot hold (bytes, a Set, a Map, a Date). */
const NOT_JSON = new Map(['binary', 'set', 'omap', 'timestamp'].map((t) => [`tag:yaml.org,2002:${t}`, `!!${t}`]));

/**
 * Walks a composed document once, in document order (so every alias's anchor is measured before it is
 * met): counts expanded nodes, finds duplicate keys (naming the key as go-yaml, kubectl's, does) and
 * values that are not JSON.
 */
class DocumentCheck {
  private readonly sizes = new Map<string, number>();
  private readonly open = new Set<string>();
  total = 0;

  constructor(private readonly fail: (node: Node, reason: string) => never) {}

  measure(node: unknown): number {
    if (isAlias(node)) {
      if (this.open.has(node.source)) this.fail(node, `alias *${node.source} is inside its own anchor`);
      return this.add(node, this.sizes.get(node.source) ?? 1);
    }
    if (!isMap(node) && !isSeq(node) && !isScalar(node)) return 0;
    const tag = NOT_JSON.get(node.tag ?? '');
    if (tag) this.fail(node, `a ${tag} value has no JSON form: a Kubernetes object holds strings, numbers, booleans, lists and maps`);
    const anchor = node.anchor;
    if (anchor) this.open.add(anchor);
    let size = this.add(node, 1);
    if (isMap(node)) this.uniqueKeys(node.items);
    if (!isScalar(node)) {
      for (const item of node.items) size += isPair(item) ? this.measure(item.key) + this.measure(item.value) : this.measure(item);
    }
    if (anchor) {
      this.open.delete(anchor);
      this.sizes.set(anchor, size);
    }
    return size;
  }

  private uniqueKeys(pairs: readonly unknown[]): void {
    const seen = new Set<unknown>();
    for (const pair of pairs) {
      const k = isPair(pair) && isScalar(pair.key) ? pair.key : undefined;
      if (!k) continue;
      if (seen.has(k.value)) this.fail(k, `key ${JSON.stringify(String(k.value))} already set in map`);
      seen.add(k.value);
    }
  }

  private add(node: Node, n: number): number {
    this.total += n;
    if (this.total > MAX_EXPANDED_NODES) this.fail(node, `aliases expand to more than ${MAX_EXPANDED_NODES} nodes`);
    return n;
  }
}

/** Every document of `text` as plain JSON values (empty documents included as null). Throws YamlError. */
export function loadYamlDocuments(text: string): unknown[] {
  const lines = new LineCounter();
  const at = (offset: number, reason: string): YamlError => {
    const { line, col } = lines.linePos(offset);
    return new YamlError(line, col, reason);
  };
  const tokens = [...new Parser(lines.addNewLine).parse(text)] as unknown as CstNode[];
  for (const token of tokens) {
    const deep = tooDeep(token);
    if (deep) throw at(deep.offset, `nesting is deeper than ${MAX_DEPTH} levels`);
  }
  // uniqueKeys is checked by DocumentCheck, which can name the key
  const composer = new Composer({ uniqueKeys: false, merge: true });
  const docs: Document.Parsed[] = [...composer.compose(tokens as never)];
  for (const doc of docs) {
    const error = doc.errors[0];
    if (error) throw at(error.pos[0], (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, ''));
  }
  return docs.map((doc) => {
    new DocumentCheck((node, reason) => {
      throw at(node.range?.[0] ?? 0, reason);
    }).measure(doc.contents);
    // Bounded above; the library's per-alias count would reject legitimate merge-key reuse without a position.
    return doc.toJS({ maxAliasCount: -1 }) as unknown;
  });
}
