// The docs match the code: every command and flag, metric, condition reason, event reason, feature gate and
// planner blocker kind the code has is in docs/reference.md, and the user guide's strategy table covers
// every strategy the issue names.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { FEATURE_GATES } from '../../src/api/features.js';
import { buildProgram } from '../../src/cli/program.js';
import { ConditionType, Reason } from '../../src/controller/model/conditions.js';
import { EventReason } from '../../src/controller/model/event-texts.js';
import { createControllerMetrics } from '../../src/runtime/metrics.js';
import { createVirtualClock } from '../../src/sim/virtual-clock.js';

const reference = readFileSync(new URL('../../docs/reference.md', import.meta.url), 'utf8');
const guide = readFileSync(new URL('../../docs/user-guide.md', import.meta.url), 'utf8');

function commands(c: Command, prefix = ''): { path: string; cmd: Command }[] {
  return c.commands.flatMap((s) => {
    const path = `${prefix} ${s.name()}`.trim();
    return [{ path, cmd: s }, ...commands(s, path)];
  });
}

/** The heading of one command's section (`### ordinal controller`, `### why`), if there is one. */
const heading = (path: string): RegExpExecArray | null => new RegExp(`^###\\s+((ordinal )?${path})\\s*$`, 'm').exec(reference);

/** The part of the reference about one command: from its heading to the next heading of any level. */
function section(path: string): string {
  const m = heading(path);
  if (!m) return '';
  const rest = reference.slice(m.index + m[0].length);
  const next = rest.search(/^#{2,3}\s/m);
  return next < 0 ? rest : rest.slice(0, next);
}

const CONNECTION_FLAGS = ['--kubeconfig', '--context', '--namespace', '--request-timeout'];

describe('docs/reference.md', () => {
  for (const { path, cmd } of commands(buildProgram())) {
    if (cmd.commands.length > 0) continue; // `rollout` only groups its subcommands
    it(`documents \`${path}\` and each of its flags`, () => {
      const text = section(path);
      assert.ok(text, `a "### ${path}" section`);
      for (const o of cmd.options) {
        const flag = o.long ?? '';
        const where = CONNECTION_FLAGS.includes(flag) && !['controller', 'manifests'].includes(path) ? reference : text;
        assert.match(where, new RegExp(`(\`|, )${flag}\\b`), `${path} ${flag}`);
      }
    });
  }

  it('links every command\'s section from the command index at the top', () => {
    const index = reference.slice(reference.indexOf('- [Commands](#commands)'), reference.indexOf('- [API fields]'));
    for (const { path, cmd } of commands(buildProgram())) {
      if (cmd.commands.length > 0) continue;
      const title = heading(path)?.[1] ?? path;
      assert.ok(index.includes(`](#${title.replace(/ /g, '-')})`), `the index links ${title}`);
    }
  });

  it('lists every metric the controller registers', async () => {
    const metrics = createControllerMetrics();
    metrics.workQueue('statefulset', createVirtualClock());
    const names = (await metrics.registry.getMetricsAsJSON()).map((m) => m.name);
    assert.ok(names.length >= 15);
    for (const name of names) assert.ok(reference.includes(`\`${name}\``), name);
  });

  it('lists every condition type and reason', () => {
    for (const v of [...Object.values(ConditionType), ...Object.values(Reason)]) assert.ok(reference.includes(`\`${v}\``), v);
    for (const s of ['RollingUpdate', 'EnforcedRollingUpdate', 'Recreate', 'OnDelete']) assert.ok(reference.includes(`\`${s}InProgress\``), s);
  });

  it('lists every event reason', () => {
    const upstream = ['SuccessfulCreate', 'FailedCreate', 'SuccessfulUpdate', 'FailedUpdate', 'SuccessfulDelete', 'FailedDelete'];
    for (const v of [...upstream, ...Object.values(EventReason)]) assert.ok(reference.includes(`| \`${v}\` |`), v);
  });

  it('lists every feature gate', () => {
    for (const gate of Object.keys(FEATURE_GATES)) assert.ok(reference.includes(`| \`${gate}\` |`), gate);
  });

  it('gives a `why` sentence for every planner blocker kind', () => {
    const planTypes = readFileSync(new URL('../../src/controller/model/plan-types.ts', import.meta.url), 'utf8');
    const union = planTypes.slice(planTypes.indexOf('export type Blocker ='), planTypes.indexOf('export type BlockerKind'));
    const kinds = [...union.matchAll(/kind: '(\w+)'/g)].map((m) => m[1] ?? '');
    assert.ok(kinds.length >= 18);
    for (const k of kinds) assert.ok(reference.includes(`| \`${k}\` |`), `why reason for ${k}`);
  });
});

describe('docs/user-guide.md', () => {
  it('compares every strategy the issue names in one table, with ordering, availability and stuck pods', () => {
    const table = guide.slice(guide.indexOf('| Strategy | Ordering | Availability'));
    assert.ok(table.length > 0);
    const rows = table.split('\n').filter((l) => l.startsWith('| `'));
    for (const s of ['`RollingUpdate` (default', '`maxUnavailable: N`', 'batchStartPolicy: Together', '`EnforcedRollingUpdate`', '`Recreate`', '`OnDelete`']) {
      assert.ok(rows.some((r) => r.includes(s)), s);
    }
  });

  it('covers install, migration, metrics and why', () => {
    for (const h of ['## Install', '## Migrate a set from apps/v1', '## Choose a strategy', '## Read the metrics', '## Debug with why']) assert.ok(guide.includes(h), h);
  });
});
