#!/usr/bin/env node
// Runs the compiled dist/ when it is current (bin/dist-current.js), else the TypeScript sources through tsx.
// An installed package or the container image has no src/: always dist/. In a clone, `npm ci` builds dist/
// (the `prepare` script); a developer who edits src/ and runs `npx ordinal` therefore never runs a stale
// dist/, just the slower tsx start-up (about 0.7 s of CPU more) until the next `npm run build`.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { distIsCurrent, hasSources } from './dist-current.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

if (!hasSources(root) || distIsCurrent(root)) {
  await import(pathToFileURL(join(root, 'dist', 'cli', 'main.js')).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'src', 'cli', 'main.ts')).href);
}
