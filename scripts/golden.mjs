#!/usr/bin/env node
// `npm run golden`: rewrites examples/golden/NAME.jsonl, the expected timeline of every examples/NAME.yaml,
// and deletes goldens whose example is gone. Each example runs in a fresh process through the CLI
// (`ordinal simulate FILE --format jsonl`), so a golden is exactly what a user sees and no cache warmed by
// another run can shape it; test/examples.test.ts compares the timelines byte for byte against these.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = join(import.meta.dirname, '..');
const examples = join(root, 'examples');
const golden = join(examples, 'golden');
const cli = join(root, 'bin', 'ordinal.js');

const names = readdirSync(examples)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort()
  .map((f) => ({ file: join(examples, f), name: basename(f).replace(/\.ya?ml$/, '') }));
mkdirSync(golden, { recursive: true });

let bad = 0;
for (const { file, name } of names) {
  const out = join(golden, `${name}.jsonl`);
  const res = spawnSync(process.execPath, [cli, 'simulate', file, '--format', 'jsonl', '--out', out], { stdio: ['ignore', 'inherit', 'inherit'] });
  // Exit 1 (an expect failed) still writes the timeline, so the diff shows what changed; exit 2 writes nothing.
  const status = res.status === 0 ? 'ok' : `exit ${res.status ?? res.signal}`;
  if (res.status !== 0) bad++;
  process.stdout.write(`${status.padEnd(7)} examples/golden/${name}.jsonl\n`);
}

const wanted = new Set(names.map((n) => `${n.name}.jsonl`));
for (const f of readdirSync(golden).filter((f) => f.endsWith('.jsonl') && !wanted.has(f))) {
  rmSync(join(golden, f));
  process.stdout.write(`removed examples/golden/${f} (no such example)\n`);
}
if (bad) {
  process.stderr.write(`${bad} example(s) did not exit 0; their goldens show the failing run\n`);
  process.exit(1);
}
