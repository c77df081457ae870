import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulateCommand } from '../../src/cli/commands/simulate.js';
import { fromJsonl } from '../../src/sim/timeline.js';

const dir = mkdtempSync(join(tmpdir(), 'ordinal-simulate-'));

function scenarioFile(name: string, steps: string): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    `kind: Scenario
objects:
  - apiVersion: apps/v1
    kind: StatefulSet
    metadata: {name: web}
    spec:
      replicas: 2
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: c, image: "app:1"}]}
steps:
${steps}`,
  );
  return path;
}

function io() {
  const out = { stdout: '', stderr: '' };
  return { out, io: { stdout: (t: string) => void (out.stdout += t), stderr: (t: string) => void (out.stderr += t) } };
}

describe('ordinal simulate', () => {
  it('exits 0 when every expect holds and prints jsonl ending with the summary', async () => {
    const file = scenarioFile('ok.yaml', '  - waitFor: Converged\n  - expect: {status: {web: {readyReplicas: 2}}}\n');
    const { out, io: sink } = io();
    assert.equal(await simulateCommand(file, { format: 'jsonl' }, sink), 0);
    const records = fromJsonl(out.stdout);
    assert.equal(records[0]!.type, 'step');
    assert.ok(records.some((r) => r.type === 'action' && r.verb === 'create' && r.resource === 'pods'));
    assert.equal(records.at(-1)!.type, 'summary');
    assert.ok(records.some((r) => r.type === 'expect' && r.ok));
  });

  it('exits 2 naming the kind of a scenario whose kind is misspelt, and the position of a value that is not JSON', async () => {
    const misspelt = scenarioFile('scenery.yaml', '  - waitFor: Converged\n');
    writeFileSync(misspelt, readFileSync(misspelt, 'utf8').replace('kind: Scenario', 'kind: Scenery'));
    const { out, io: sink } = io();
    assert.equal(await simulateCommand(misspelt, {}, sink), 2);
    assert.equal(out.stderr, `${misspelt}: invalid scenario:\n  kind: must be one of Scenario, got string "Scenery"\n`);
    const binary = scenarioFile('binary.yaml', '  - waitFor: Converged\n');
    writeFileSync(binary, readFileSync(binary, 'utf8').replace('apiVersion: apps/v1', 'apiVersion: !!binary aGVsbG8='));
    out.stderr = '';
    assert.equal(await simulateCommand(binary, {}, sink), 2);
    assert.equal(out.stderr, `${binary}:3:26: a !!binary value has no JSON form: a Kubernetes object holds strings, numbers, booleans, lists and maps\n`);
  });

  it('exits 1 when an expect fails and writes --out and --report files', async () => {
    const file = scenarioFile('fail.yaml', '  - waitFor: Converged\n  - expect: {status: {web: {readyReplicas: 3}}}\n');
    const { out, io: sink } = io();
    const timeline = join(dir, 'fail.txt');
    const report = join(dir, 'fail.html');
    assert.equal(await simulateCommand(file, { format: 'text', out: timeline, report }, sink), 1);
    assert.equal(out.stdout, '');
    assert.match(readFileSync(timeline, 'utf8'), /expect {4}#1 FAILED: web: status.readyReplicas is 2, expected 3/);
    assert.match(readFileSync(report, 'utf8'), /<svg class="timeline"/);
    assert.match(out.stderr, /report written to/);
  });

  it('exits 1 when a waitFor times out, naming what it waited for', async () => {
    const file = scenarioFile('timeout.yaml', '  - waitFor: {pod: web-5}\n    timeoutSeconds: 5\n  - advance: 1\n');
    const { out, io: sink } = io();
    assert.equal(await simulateCommand(file, { format: 'jsonl' }, sink), 1);
    const failure = fromJsonl(out.stdout).find((r) => r.type === 'failure');
    assert.deepEqual(failure, { t: 5, type: 'failure', index: 0, message: 'waitFor pod default/web-5 Ready: not reached after 5s: the pod does not exist' });
    assert.ok(!fromJsonl(out.stdout).some((r) => r.type === 'step' && r.index === 1), 'steps after a failed waitFor do not run');
  });

  it('exits 2 on a bad file without running anything', async () => {
    const file = scenarioFile('bad.yaml', '  - patch: {kind: StatefulSet, name: web, merge: 3}\n');
    const { out, io: sink } = io();
    assert.equal(await simulateCommand(file, {}, sink), 2);
    assert.equal(out.stdout, '');
    assert.match(out.stderr, /steps\[0\]\.patch\.merge: must be an object/);
    assert.equal(await simulateCommand(join(dir, 'missing.yaml'), {}, sink), 2);
    assert.match(out.stderr, /cannot read file/);
  });

  describe('text timeline', () => {
    const APPLY = `  - waitFor: Converged
  - apply:
      apiVersion: apps/v1
      kind: StatefulSet
      metadata: {name: web}
      spec:
        replicas: 3
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec: {containers: [{name: c, image: "app:2"}]}
  - waitFor: Converged
  - patch: {kind: StatefulSet, name: web, merge: {spec: {updateStrategy: {rollingUpdate: {maxUnavailable: 2}}}}}
  - waitFor: Converged
`;

    it('leaves out the Event writes (jsonl keeps them) and says what an apply or patch step changes', async () => {
      const file = scenarioFile('apply.yaml', APPLY);
      const text = io();
      assert.equal(await simulateCommand(file, {}, text.io), 0);
      assert.doesNotMatch(text.out.stdout, /action +\w+ events /);
      assert.match(text.out.stdout, /\n +\d+\.\d{3}s {2}step {6}#1 apply StatefulSet web: replicas: 2 -> 3; image c: app:1 -> app:2\n/);
      assert.match(text.out.stdout, /\n +\d+\.\d{3}s {2}step {6}#3 patch StatefulSet web: \+updateStrategy\.rollingUpdate\.maxUnavailable: 2\n/);
      const jsonl = io();
      await simulateCommand(file, { format: 'jsonl' }, jsonl.io);
      assert.ok(fromJsonl(jsonl.out.stdout).some((r) => r.type === 'action' && r.resource === 'events'), 'jsonl is complete');
    });

    it('ends with each rollout: when it started, the pods it replaced, how long it took and how low availability went', async () => {
      const { out, io: sink } = io();
      assert.equal(await simulateCommand(scenarioFile('rollouts.yaml', APPLY), {}, sink), 0);
      const summary = out.stdout.slice(out.stdout.lastIndexOf('summary'));
      // two pods replaced one at a time (1 s each to stop and start), the third created: 2 of 3 available from the first deletion
      assert.match(summary, /\n {4}rollout of web \(generation 2, revision web-\w+\): started at t=(\d+)s, 2 pods replaced, 1 created, took \d+s, lowest availability 2 of 3 at t=\1s\n/);
      // the patch of maxUnavailable alone keeps the revision: no rollout of its own
      assert.equal((summary.match(/ rollout of web /g) ?? []).length, 1, summary);
    });

    it('says the run failed when a step could not be done, though the sets converged (exit 1)', async () => {
      const refused = APPLY.replace('selector: {matchLabels: {app: web}}\n        template:\n          metadata: {labels: {app: web}}', 'selector: {matchLabels: {app: web, x: y}}\n        template:\n          metadata: {labels: {app: web, x: y}}');
      const { out, io: sink } = io();
      assert.equal(await simulateCommand(scenarioFile('refused.yaml', refused), {}, sink), 1);
      assert.match(out.stdout, /summary {3}FAILED converged=true convergedAt=\d+ endedAt=\d+\n {4}failed: step #1 at t=\d+s: apply: StatefulSet\.apps "web" is invalid: spec\.selector: Invalid value: .*: field is immutable\n/);
    });
  });
});
