// `simulate --why-at T`: why and plan for every set at virtual time T, without changing the timeline.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { simulateCommand } from '../../src/cli/commands/simulate.js';
import { bufferIO } from '../../src/cli/explain/io.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const STUCK = new URL('../../examples/stuck-rollout-rolling-update.yaml', import.meta.url).pathname;
const PDB = new URL('../../examples/pdb-one-at-a-time.yaml', import.meta.url).pathname;

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

  it('names the PodDisruptionBudget a rollout waits on (respectPodDisruptionBudgets), as the controller sees it', async () => {
    const io = bufferIO();
    assert.equal(await simulateCommand(PDB, { whyAt: '28' }, io), 0);
    const block = /--- why at t=28s ---\n([\s\S]*?)--- end of why ---/.exec(io.out)?.[1] ?? '';
    assert.match(block, /db-0 is not deleted: PodDisruptionBudget db allows 0 more disruptions \(4 healthy, 4 desired\)/);
    assert.match(block, /\n0\s+db-0\s+db-\w+ \(old\)\s+Ready\s+\d+s\s+held by PodDisruptionBudget db\n/);
    assert.match(block, /No actions\./);
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

  it('InPlace: names the claim that cannot grow, and the write the API server refused last', async () => {
    const refused = bufferIO();
    assert.equal(await simulateCommand(new URL('../../examples/claim-refused-class.yaml', import.meta.url).pathname, { whyAt: '30' }, refused), 0);
    assert.match(refused.out, /db-2 is not updated: its claim data-db-2 must grow to 20Gi, but StorageClass fixed does not set allowVolumeExpansion/);
    // the budget is not what holds it: 0 of 1 unavailable is never "blocked", nor do pods wait for it
    assert.doesNotMatch(refused.out, /blocked: 0 of|waits for the maxUnavailable budget/);
    const dir = mkdtempSync(join(tmpdir(), 'why-at-'));
    const file = join(dir, 'unbound.yaml');
    // the claims never bind, so kube-apiserver's rules (and the in-memory server's) refuse to grow them
    writeFileSync(file, `kind: Scenario
cluster: {storage: {bindSeconds: 3600}}
objects:
  - {apiVersion: storage.k8s.io/v1, kind: StorageClass, metadata: {name: standard}, provisioner: simulated, allowVolumeExpansion: true}
  - apiVersion: apps.ordinal.dev/v1
    kind: StatefulSet
    metadata: {name: db}
    spec:
      replicas: 2
      volumeClaimUpdatePolicy: InPlace
      selector: {matchLabels: {app: db}}
      template: {metadata: {labels: {app: db}}, spec: {containers: [{name: c, image: "db:1"}]}}
      volumeClaimTemplates: [{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], storageClassName: standard, resources: {requests: {storage: 1Gi}}}}]
steps:
  - advance: 10
  - patch: {kind: StatefulSet, name: db, merge: {spec: {volumeClaimTemplates: [{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], storageClassName: standard, resources: {requests: {storage: 2Gi}}}}]}}}
  - advance: 60
`);
    const io = bufferIO();
    assert.equal(await simulateCommand(file, { whyAt: '60' }, io), 0);
    assert.match(io.out, /Its last attempt failed \d+ s ago \(FailedUpdate, \d+ times\): update Claim data-db-1 for Pod db-1 in StatefulSet db failed error: .*immutable after creation except resources\.requests and volumeAttributesClassName for bound claims; it retries with backoff\./);
    // the claim update the API server keeps refusing is retried, not in flight: it takes no budget
    assert.match(io.out, /Rolling update has budget left \(0 of maxUnavailable 1 ordinals unavailable\) but replaces no pod now\./);
    assert.doesNotMatch(io.out, /claims updated now/);
  });
});
