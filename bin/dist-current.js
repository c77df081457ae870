// Whether a clone's compiled dist/ is current: `npm run build` ends by writing dist/.build-stamp, whose mtime
// is the time the build started, and dist/ is current while no file or folder under src/ is newer than it (a
// folder's mtime covers deletions). A failed build keeps the old stamp, older than the edits, so its
// half-written dist/ is never current. bin/ordinal.js runs dist/ only when it is current (else the sources
// through tsx), and the `prepare` script (scripts/prepare.mjs) builds only when it is not.
// Checking the mtimes of the ~300 source files costs a few milliseconds.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const mtime = (path) => statSync(path, { throwIfNoEntry: false })?.mtimeMs;

/** Whether some file or folder under `dir` changed after `since`. */
function changedSince(dir, since) {
  if (mtime(dir) > since) return true;
  return readdirSync(dir, { withFileTypes: true }).some((e) =>
    e.isDirectory() ? changedSince(join(dir, e.name), since) : mtime(join(dir, e.name)) > since,
  );
}

/** A clone has src/; an installed package or the container image has only dist/. */
export const hasSources = (root) => mtime(join(root, 'src')) !== undefined;

/** dist/ was built after the last change under src/. */
export function distIsCurrent(root) {
  const stamp = mtime(join(root, 'dist', '.build-stamp'));
  return stamp !== undefined && !changedSince(join(root, 'src'), stamp);
}
