#!/usr/bin/env node
// Runs the compiled dist/ when it is up to date, else the TypeScript sources through tsx.
// An installed package or the container image has no src/: always dist/. In a clone, `npm ci` builds dist/
// (the `prepare` script), and `npm run build` ends by writing dist/.build-stamp, whose mtime is the time the
// build started; dist/ is used only while no file under src/ is newer than that stamp. A developer who edits
// src/ and runs `npx ordinal` therefore never runs a stale dist/ (just the slower tsx start-up until the next
// build); a failed build keeps the old stamp, older than the edits, so its half-written dist/ is never run.
// Checking the mtimes of the ~230 source files costs a few milliseconds; tsx costs about 0.7 s of CPU more.
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

const mtime = (path) => statSync(path, { throwIfNoEntry: false })?.mtimeMs;

/** Whether some file or folder under `dir` changed after `since` (a folder's mtime covers deletions). */
function changedSince(dir, since) {
  if (mtime(dir) > since) return true;
  return readdirSync(dir, { withFileTypes: true }).some((e) =>
    e.isDirectory() ? changedSince(join(dir, e.name), since) : mtime(join(dir, e.name)) > since,
  );
}

const inClone = mtime(src) !== undefined;
const stamp = mtime(join(root, 'dist', '.build-stamp'));
if (!inClone || (stamp !== undefined && !changedSince(src, stamp))) {
  await import(pathToFileURL(join(root, 'dist', 'cli', 'main.js')).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(src, 'cli', 'main.ts')).href);
}
