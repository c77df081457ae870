// statefulset_update_duration_seconds measures a rollout from its start (the template change) to its
// completion: every replica updated and available, minReadySeconds included — not merely updated and Ready.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runScenario } from '../../src/sim/runner.js';
import { loadScenario } from '../../src/sim/scenario.js';
import type { StatusRecord, TimelineRecord } from '../../src/sim/timeline.js';

const examples = join(import.meta.dirname, '..', '..', 'examples');

/** When the rollout started (the step) and completed: updated = available = replicas on the new revision. */
function rolloutTimes(records: readonly TimelineRecord[], stepKey: string, replicas: number): { start: number; end: number } {
  const at = records.findIndex((r) => r.type === 'step' && typeof r.step === 'object' && r.step !== null && stepKey in r.step);
  assert.ok(at >= 0, `no ${stepKey} step`);
  const before = records.slice(0, at).findLast((r): r is StatusRecord => r.type === 'status')?.status.updateRevision;
  const done = (r: TimelineRecord): r is StatusRecord =>
    r.type === 'status' &&
    r.status.updateRevision !== before &&
    r.status.updatedReplicas === replicas &&
    r.status.availableReplicas === replicas &&
    r.status.currentRevision === r.status.updateRevision;
  const end = records.slice(at).find(done)?.t;
  assert.ok(end !== undefined, 'the rollout never completed');
  return { start: (records[at] as TimelineRecord).t, end };
}

describe('statefulset_update_duration_seconds', () => {
  const cases: [file: string, replicas: number][] = [
    ['demo.yaml', 8],
    ['parallel-min-ready.yaml', 6],
  ];
  for (const [file, replicas] of cases) {
    it(`ends when the rollout of ${file} completes, minReadySeconds included`, async () => {
      const result = await runScenario(loadScenario(join(examples, file)));
      const set = result.records.find((r): r is StatusRecord => r.type === 'status');
      assert.ok(set !== undefined);
      const { start, end } = rolloutTimes(result.records, 'setImage', replicas);
      const metrics = Object.entries(result.summary.metrics);
      const sum = metrics.find(([k]) => k.startsWith('statefulset_update_duration_seconds_sum{') && k.includes(`statefulset_name="${set.name}"`))?.[1];
      const count = metrics.find(([k]) => k.startsWith('statefulset_update_duration_seconds_count{') && k.includes(`statefulset_name="${set.name}"`))?.[1];
      assert.equal(count, 1, 'one rollout, one observation');
      assert.ok(end - start > 0);
      assert.equal(sum, end - start);
    });
  }
});
