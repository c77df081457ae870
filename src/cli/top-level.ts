// The process around one command line, shared by bin/ (src/cli/main.ts) and the single-file bundle
// (scripts/bundle.mjs). A command that cannot finish must never look like success: an unhandled
// rejection, an error escaping the command, or the event loop running dry while the command is still
// pending (a promise nothing will settle) each print one `error:` line and exit 1 — never 0, and never
// Node's silent 13 for an unsettled top-level await.

import type { Command } from 'commander';

const firstLine = (reason: unknown): string => (reason instanceof Error ? reason.message : String(reason)).split('\n')[0] ?? '';

function die(message: string): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}

/** Parses `argv` and runs the command; resolves when it is done, with `process.exitCode` set. */
export async function runProgram(program: Command, argv: readonly string[]): Promise<void> {
  let running = true;
  process.on('unhandledRejection', (reason) => die(firstLine(reason)));
  // 'beforeExit' fires when nothing (socket, timer, child) is left to wake the process up.
  process.on('beforeExit', () => {
    if (running) die('internal error: the command stopped before it finished (it was waiting for something that will never happen)');
  });
  try {
    await program.parseAsync([...argv]);
  } catch (e) {
    process.stderr.write(`error: ${firstLine(e)}\n`);
    process.exitCode = 1;
  } finally {
    running = false;
  }
}
