import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_SCENARIO, demoCommand } from '../../src/cli/commands/demo.js';

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
    assert.match(printed, new RegExp(`HTML report: ${report.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.match(readFileSync(report, 'utf8'), /<svg class="timeline"/);
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
});
