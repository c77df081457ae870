// What `why` tells a user whose claim cannot follow its template: only advice the API server accepts (a
// claim template's request never shrinks, and a claim's request stays above its capacity).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { blockerSentence, type ExplainContext } from '../../src/cli/explain/blocker-text.js';
import { effectiveStrategy } from '../../src/controller/rollout/effective-strategy.js';
import { features, newSet, T0 } from '../controller/fixtures.js';

const set = newSet(3);
const ctx: ExplainContext = { set, pods: new Map(), now: T0, strategy: effectiveStrategy(set, features), updateRevision: 'r2', minReadySeconds: 0, start: 0, replicas: 3, updateDeletions: [] };

describe('claim advice in why', () => {
  it('a class that refuses expansion: allow it, or recreate the claim and pod — never shrink the template', () => {
    const text = blockerSentence({ kind: 'claimExpansionRefused', pod: 'db-2', claim: 'data-db-2', storageClass: 'fixed', request: '20Gi' }, ctx);
    assert.equal(
      text,
      'db-2 is not updated: its claim data-db-2 must grow to 20Gi, but StorageClass fixed does not set allowVolumeExpansion; set allowVolumeExpansion: true on fixed if its provisioner can expand volumes, ' +
        "or delete the claim data-db-2 and the pod db-2 to have both created again at the new size (the volume's data is lost); until then nothing is deleted",
    );
    assert.doesNotMatch(text, /restore the template/);
  });

  it('a claim without a class has one way out', () => {
    const text = blockerSentence({ kind: 'claimExpansionRefused', pod: 'db-2', claim: 'data-db-2', storageClass: '', request: '20Gi' }, ctx);
    assert.match(text, /it has no StorageClass; delete the claim data-db-2 and the pod db-2/);
  });

  it('a claim on another class than the template', () => {
    const text = blockerSentence({ kind: 'claimIncompatible', pod: 'db-0', claim: 'data-db-0', field: 'spec.storageClassName', have: '"slow"', want: '"fast"' }, ctx);
    assert.equal(
      text,
      'db-0 is not updated: its claim data-db-0 has spec.storageClassName "slow" where the template says "fast", which a claim cannot change; ' +
        "delete the claim data-db-0 and the pod db-0 to have both created again from the template (the volume's data is lost); until then nothing is deleted",
    );
  });

  it('a failed expansion: a smaller request must stay above the capacity', () => {
    const text = blockerSentence({ kind: 'claimResizeFailed', pod: 'db-2', claim: 'data-db-2', message: 'out of space' }, ctx);
    assert.match(text, /lower the claim's request to a size still above its current capacity/);
    assert.doesNotMatch(text, /back to its capacity/);
  });
});
