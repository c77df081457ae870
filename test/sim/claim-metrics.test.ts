// Claim metrics of volumeClaimUpdatePolicy: InPlace on the simulated cluster: expansions the controller
// started and saw complete (with their duration), and the three ways a claim does not grow — a class that
// does not allow expansion (once per claim and size, however many syncs hold it), a resize that fails (once
// per resize), a patch the API refuses (per attempt).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runScenario } from '../../src/sim/runner.js';
import { parseScenario } from '../../src/sim/scenario.js';
import type { SummaryRecord } from '../../src/sim/timeline.js';
import { dbSet, growTemplate, storageClass } from './claim-scenario.js';

/** The summary's series for set `db` whose name starts with `metric` (and whose labels include `extra`). */
function series(summary: SummaryRecord, metric: string, extra = ''): number | undefined {
  const found = Object.entries(summary.metrics).filter(([k]) => k.startsWith(`${metric}{`) && k.includes('statefulset_name="db"') && k.includes(extra));
  assert.ok(found.length <= 1, found.map(([k]) => k).join(', '));
  return found[0]?.[1];
}

async function summaryOf(text: string): Promise<SummaryRecord> {
  const { records } = await runScenario(parseScenario(text));
  const summary = records.find((r): r is SummaryRecord => r.type === 'summary');
  assert.ok(summary);
  return summary;
}

const failures = 'statefulset_claim_resize_failures_total';

describe('claim metrics (InPlace)', () => {
  it('counts each claim grown and how long its expansion took, and a class that refused it once', async () => {
    const s = await summaryOf(readFileSync(new URL('../../examples/claim-refused-class.yaml', import.meta.url), 'utf8'));
    assert.equal(series(s, 'statefulset_claims_resized_total'), 3);
    assert.equal(series(s, 'statefulset_claim_resize_duration_seconds_count'), 3);
    assert.equal(series(s, 'statefulset_claim_resize_duration_seconds_sum'), 30, 'three expansions of 10 s each');
    assert.equal(series(s, failures, 'reason="ExpansionNotAllowed"'), 1, 'held for many syncs, counted once');
    assert.equal(series(s, failures, 'reason="ResizeError"'), undefined);
  });

  it('counts a failed resize once, and no claim as resized', async () => {
    const s = await summaryOf(`kind: Scenario
cluster: {storage: {expansionSeconds: 5, classes: {broken: {expansion: Fails}}}}
objects:
${storageClass('broken', true)}
${dbSet({ replicas: 2, volumeClaimUpdatePolicy: 'InPlace', className: 'broken' })}
steps:
  - waitFor: Converged
${growTemplate('2Gi', 'broken')}
  - advance: 300
`);
    assert.equal(series(s, failures, 'reason="ResizeError"'), 1);
    assert.equal(series(s, 'statefulset_claims_resized_total'), undefined);
  });

  it('counts every patch the API refuses (a claim that is not bound yet cannot grow)', async () => {
    const s = await summaryOf(`kind: Scenario
cluster: {storage: {bindSeconds: 3600}}
objects:
${storageClass('standard', true)}
${dbSet({ replicas: 1, volumeClaimUpdatePolicy: 'InPlace', className: 'standard' })}
steps:
  - advance: 10
${growTemplate('2Gi', 'standard')}
  - advance: 60
`);
    const refused = series(s, failures, 'reason="PatchRefused"') ?? 0;
    assert.ok(refused >= 2, `retried with backoff and counted per attempt: ${refused}`);
  });
});
