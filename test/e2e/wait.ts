// Bounded waits on real time for the end-to-end tests: every wait names what it waited for and, on
// timeout, the last reason the condition gave.

/** A condition: true when met; false or a reason (string) when not yet. */
export type Check = () => boolean | string | Promise<boolean | string>;

export class WaitTimeout extends Error {
  override name = 'WaitTimeout';
}

export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` every `intervalMs` until it returns true; throws WaitTimeout after `timeoutMs`. */
export async function waitUntil(what: string, timeoutMs: number, check: Check, intervalMs = 200): Promise<number> {
  const start = Date.now();
  let last = '';
  for (;;) {
    try {
      const ok = await check();
      if (ok === true) return Date.now() - start;
      last = typeof ok === 'string' ? ok : '';
    } catch (e) {
      last = `check threw: ${e instanceof Error ? e.message : String(e)}`;
    }
    if (Date.now() - start >= timeoutMs) {
      throw new WaitTimeout(`timed out after ${(timeoutMs / 1000).toFixed(1)}s waiting for ${what}${last ? ` (last: ${last})` : ''}`);
    }
    await pause(intervalMs);
  }
}

/** Runs `fn` with a deadline; rejects with WaitTimeout when it takes longer. */
export async function withTimeout<T>(what: string, timeoutMs: number, fn: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WaitTimeout(`timed out after ${(timeoutMs / 1000).toFixed(1)}s: ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([fn, limit]);
  } finally {
    clearTimeout(timer);
  }
}
