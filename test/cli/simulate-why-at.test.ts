// `simulate --why-at T`: why and plan for every set at virtual time T, without changing the timeline.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { simulateCommand } from '../../src/cli/commands/simulate.js';
import { bufferIO } from '../../src/cli/explain/io.js';

const STUCK = new URL('../../examples/stuck-rollout-rolling-update.yaml', import.meta.url).pathname;

describe('simulate --why-at', () => {
  it('puts why and plan into the text timeline at that time', async () => {
    const io = bufferIO();
    assert.equal(await simulateCommand(STUCK, { whyAt: '100' }, io), 0);
    const block = /--- why at t=100s ---\n([\s\S]*?)--- end of why ---/.exec(io.out)?.[1] ?? '';
    assert.match(block, /Stuck: app-4 is in ImagePullBackOff on the old revision; RollingUpdate will not replace it/);
    assert.match(block, /\n4\s+app-4\s+app-\w+ \(old\)\s+ImagePullBackOff\s+/);
    assert.match(block, /statefulset\.apps\.ordinal\.dev\/app: next sync \(dry run, nothing was changed\)\nNo actions\./);
    const before = io.out.slice(0, io.out.indexOf('--- why'));
    const lastT = [...before.matchAll(/^\s*(\d+(?:\.\d+)?)s?\b/gm)].map((m) => Number(m[1])).at(-1) ?? 0;
    assert.ok(lastT <= 100, `records before the block are at t <= 100 (last ${lastT})`);
  });

  it('leaves the jsonl timeline byte-identical and writes the explanation to stderr', async () => {
    const plain = bufferIO();
    const probed = bufferIO();
    await simulateCommand(STUCK, { format: 'jsonl' }, plain);
    await simulateCommand(STUCK, { format: 'jsonl', whyAt: '100' }, probed);
    assert.equal(probed.out, plain.out);
    assert.match(probed.err, /--- why at t=100s ---/);
  });

  it('says when the scenario ended before T, and refuses a negative T', async () => {
    const late = bufferIO();
    assert.equal(await simulateCommand(STUCK, { whyAt: '999999' }, late), 0);
    assert.match(late.out, /--why-at 999999: the scenario ended at t=\d+(\.\d+)?s, before that time/);
    const bad = bufferIO();
    assert.equal(await simulateCommand(STUCK, { whyAt: '-1' }, bad), 2);
    assert.match(bad.err, /must be a number of virtual seconds >= 0/);
  });
});
