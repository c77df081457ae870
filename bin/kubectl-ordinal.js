#!/usr/bin/env node
// In a clone (src/ present) runs the TypeScript sources through tsx, so `npx ordinal …` works straight
// after `npm ci` and never runs a stale dist/; an installed package or the container image (no src/)
// runs the compiled dist/.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'src', 'cli', 'main.ts');
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(source).href);
} else {
  await import(pathToFileURL(join(root, 'dist', 'cli', 'main.js')).href);
}
