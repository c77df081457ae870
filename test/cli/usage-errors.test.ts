// Usage errors as kubectl prints them: one `error:` line and where to find help, never the whole help text,
// for the top-level command and every subcommand.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.js';

interface Parsed {
  stderr: string;
  exitCode: number | undefined;
}

/** Parses argv with commander's exit and output captured. */
function parse(name: string, argv: string[]): Parsed {
  const program = buildProgram(name);
  let stderr = '';
  const capture = (cmd: Command) => {
    cmd.exitOverride().configureOutput({ writeErr: (s) => (stderr += s), writeOut: () => {} });
    cmd.commands.forEach(capture);
  };
  capture(program);
  let exitCode: number | undefined;
  try {
    program.parse(argv, { from: 'user' });
  } catch (e) {
    exitCode = (e as { exitCode?: number }).exitCode;
  }
  return { stderr, exitCode };
}

describe('usage errors', () => {
  it('an unknown option of a subcommand: one line and the subcommand’s --help', () => {
    const r = parse('kubectl ordinal', ['rollout', 'status', '--bogus']);
    assert.equal(r.exitCode, 1);
    assert.equal(r.stderr, "error: unknown option '--bogus'\nSee 'kubectl ordinal rollout status --help' for usage.\n");
  });

  it('a missing argument and an unknown command', () => {
    assert.equal(parse('ordinal', ['simulate']).stderr, "error: missing required argument 'file'\nSee 'ordinal simulate --help' for usage.\n");
    const unknown = parse('ordinal', ['bogus']);
    assert.equal(unknown.exitCode, 1);
    assert.doesNotMatch(unknown.stderr, /Usage:/);
    assert.match(unknown.stderr, /\nSee 'ordinal --help' for usage\.\n$/);
  });
});
