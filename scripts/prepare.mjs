#!/usr/bin/env node
// The `prepare` script: builds dist/ (`npm run build`) when a clone's dist/ is not current, so `npm ci` leaves
// a compiled CLI behind. It builds nothing when:
// - dist/ is current (bin/dist-current.js): `npm ci` again, or `npx ordinal` after it;
// - npm runs it for `npx` (npm_command=exec): npx links the clone into its cache and prepares the link, and a
//   full tsc build there made the first `npx ordinal …` of a fresh clone wait minutes with no output;
//   bin/ordinal.js runs the sources through tsx while dist/ is stale, so nothing is lost;
// - there is no TypeScript to build with (an install without dev dependencies).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { distIsCurrent } from '../bin/dist-current.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const why =
  process.env.npm_command === 'exec' ? 'npx runs the clone as it is' :
  !existsSync(join(root, 'node_modules', 'typescript')) ? 'no TypeScript installed' :
  distIsCurrent(root) ? 'dist/ is current' : undefined;
if (why !== undefined) {
  process.stderr.write(`prepare: no build (${why})\n`);
} else {
  const res = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  process.exit(res.status ?? 1);
}
