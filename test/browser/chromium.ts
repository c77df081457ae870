// Finds the system Chromium (Debian's `chromium` package) and launches it headless through playwright-core:
// no browser download, no network. The flags keep Chromium from phoning home, which on a machine without
// network would fail many connections at a time.

import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const INSTALL_HINT =
  'chromium not found: install it with `apt-get install -y --no-install-recommends chromium` (Debian/Ubuntu) ' +
  'or point ORDINAL_CHROMIUM at a Chromium executable';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** ORDINAL_CHROMIUM if set, else the first `chromium` on PATH (what `command -v chromium` finds). */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const explicit = env.ORDINAL_CHROMIUM;
  if (explicit) return isExecutable(explicit) ? explicit : undefined;
  const dirs = (env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  return dirs.map((d) => join(d, 'chromium')).find(isExecutable);
}

/** A headless browser with a fresh profile in `userDataDir`; close the context to stop the browser. */
export async function launchChromium(executablePath: string, userDataDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 800 },
    timeout: 60_000,
  });
}
