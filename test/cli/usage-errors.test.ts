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

/** Every command's help, with the command's path, one line per option. */
function everyHelp(cmd: Command, path: string): { path: string; help: string }[] {
  const help = cmd.configureHelp({ ...cmd.configureHelp(), helpWidth: 1000 }).helpInformation();
  return [{ path, help }, ...cmd.commands.flatMap((sub) => everyHelp(sub, `${path} ${sub.name()}`))];
}

describe('help', () => {
  it('shows each default once, as `(default: X)`, and no empty list as a default', () => {
    for (const { path, help } of everyHelp(buildProgram('ordinal'), 'ordinal')) {
      for (const line of help.split('\n').filter((l) => /^\s+-/.test(l))) {
        assert.ok((line.match(/\(default\b/g) ?? []).length <= 1, `${path}: ${line}`);
        assert.doesNotMatch(line, /\(default\)|\(default [^:]|default: \[\]/, `${path}: ${line}`);
      }
    }
  });
});

describe('usage errors', () => {
  it('an unknown flag of a subcommand: kubectl’s (pflag’s) words on one line and the subcommand’s --help', () => {
    const r = parse('kubectl ordinal', ['rollout', 'status', '--bogus']);
    assert.equal(r.exitCode, 1);
    assert.equal(r.stderr, "error: unknown flag: --bogus\nSee 'kubectl ordinal rollout status --help' for usage.\n");
    assert.equal(parse('ordinal', ['why', 'web', '--bogus=3']).stderr, "error: unknown flag: --bogus\nSee 'ordinal why --help' for usage.\n");
    assert.equal(parse('ordinal', ['why', 'web', '-x']).stderr, "error: unknown shorthand flag: 'x' in -x\nSee 'ordinal why --help' for usage.\n");
  });

  it('a flag without its value', () => {
    const r = parse('ordinal', ['rollout', 'status', 'web', '--timeout']);
    assert.equal(r.exitCode, 1);
    assert.equal(r.stderr, "error: flag needs an argument: --timeout\nSee 'ordinal rollout status --help' for usage.\n");
  });

  it('a missing argument and an unknown command', () => {
    assert.equal(parse('ordinal', ['simulate']).stderr, "error: missing required argument 'file'\nSee 'ordinal simulate --help' for usage.\n");
    const unknown = parse('ordinal', ['bogus']);
    assert.equal(unknown.exitCode, 1);
    assert.doesNotMatch(unknown.stderr, /Usage:/);
    assert.match(unknown.stderr, /\nSee 'ordinal --help' for usage\.\n$/);
  });
});
