import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_SCENARIO, demoCommand } from '../../src/cli/commands/demo.js';
import { demoSummary } from '../../src/cli/commands/demo-summary.js';

const ESC = String.fromCharCode(27);

function stream(isTTY: boolean) {
  let text = '';
  const out = { isTTY, write: (chunk: string) => ((text += chunk), true) } as unknown as NodeJS.WriteStream;
  return { out, text: () => text };
}

describe('ordinal demo', () => {
  it('plays examples/demo.yaml, prints plain frames off a TTY, a summary, and writes the report', async () => {
    assert.ok(existsSync(DEMO_SCENARIO));
    const report = join(mkdtempSync(join(tmpdir(), 'ordinal-demo-')), 'demo.html');
    const { out, text } = stream(false);
    assert.equal(await demoCommand({ speed: '0', report }, out), 0);
    const printed = text();
    assert.ok(!printed.includes(ESC), 'no ANSI escapes off a TTY');
    assert.match(printed, /StatefulSet web {2}replicas 8/);
    assert.match(printed, /Summary\n {2}converged: yes/);
    assert.match(printed, /rollout of web \(generation 2, revision web-\w+\): started at t=\d+s, 8 pods replaced, took \d+s, lowest availability 5 of 8 at t=\d+s/);
    assert.match(printed, /expectations held: 1\/1 {3}invariant violations: 0/);
    const path = report.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    assert.match(printed, new RegExp(`^Ordinal demo: .*\nThe HTML report will be written to ${path} \\(--report PATH to choose\\)\\.\n`));
    assert.match(printed, new RegExp(`\nHTML report written to ${path}\n$`));
    assert.match(readFileSync(report, 'utf8'), /<svg class="timeline"/);
  });

  it('off a TTY prints each Event once, and a frame only when more than the clock and the times in state changed', async () => {
    const report = join(mkdtempSync(join(tmpdir(), 'ordinal-demo-')), 'demo.html');
    const { out, text } = stream(false);
    assert.equal(await demoCommand({ speed: '0', report }, out), 0);
    const events = text().split('\n').filter((l) => l.includes('event: '));
    assert.ok(events.length > 0);
    assert.deepEqual(events, [...new Set(events)], 'no Event line twice');
    assert.ok(events.every((l) => /^t = \d+\.\ds event: \w+ /.test(l)), events.join('\n'));
    const frames = text().split('\n\n').filter((block) => block.startsWith('t = ') && block.includes('\nStatefulSet web'));
    const withoutClocks = frames.map((f) => f.split('\n').slice(1).join('\n').replace(/ +\d+s /g, ' '));
    assert.deepEqual(withoutClocks, withoutClocks.filter((f, i) => f !== withoutClocks[i - 1]), 'no frame repeats the one before it but for the clocks');
  });

  it('redraws in place with colour on a TTY', async () => {
    const report = join(mkdtempSync(join(tmpdir(), 'ordinal-demo-')), 'demo.html');
    const { out, text } = stream(true);
    const noColor = process.env['NO_COLOR'];
    delete process.env['NO_COLOR'];
    try {
      assert.equal(await demoCommand({ speed: '0', report }, out), 0);
    } finally {
      if (noColor !== undefined) process.env['NO_COLOR'] = noColor;
    }
    assert.match(text(), new RegExp(`${ESC}\\[\\d+A${ESC}\\[J`));
    assert.ok(text().includes(`${ESC}[32mReady`));
  });

  it('prints the summary\'s times as the HTML report does, one format for seconds and minutes', () => {
    const lines = demoSummary(
      [{ t: 105, type: 'step', index: 1, step: { setImage: { name: 'web', container: 'nginx', image: 'nginx:1.28' } } }],
      {
        t: 300,
        type: 'summary',
        converged: true,
        convergedAt: 285,
        endedAt: 300,
        sets: {},
        metrics: {},
        violations: [],
        rollouts: [{ namespace: 'default', name: 'web', generation: 2, revision: 'web-2', startedAt: 105, convergedAt: 285, replacedAt: null, podsDeleted: 3, podsCreated: 3, lowestAvailable: { replicas: 2, of: 3, at: 105 } }],
      },
    );
    assert.equal(lines[1], '  converged: yes, at t=4m45s   ended at t=5m00s (virtual)');
    assert.match(lines[2] ?? '', /^ {2}rollout of web \(generation 2, revision web-2\): started at t=1m45s, .* took 3m00s, lowest availability 2 of 3 at t=1m45s$/);
  });
});
