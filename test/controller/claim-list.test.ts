// The planner when claim templates are added or removed (volumeClaimUpdatePolicy InPlace): the pod's volumes
// change, so the pod is replaced under every strategy and podUpdatePolicy — never relabelled like a
// claim-only change, never patched in place; InPlaceOnly halts naming spec.volumeClaimTemplates.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PersistentVolumeClaim, PodUpdatePolicy, StatefulSet } from '../../src/api/types.js';
import type { Action, Plan } from '../../src/controller/model/plan-types.js';
import { newSet } from './fixtures.js';
import { Harness } from './harness.js';

const nameOf = (a: Action): string => ('name' in a ? a.name : a.kind === 'createClaim' ? (a.claim.metadata.name ?? '') : a.kind === 'createPod' ? (a.pod.metadata.name ?? '') : '');
const writes = (p: Plan): string[] => p.actions.filter((a) => !['createRevision', 'updateRevision', 'deleteRevision'].includes(a.kind)).map((a) => `${a.kind} ${nameOf(a)}`);
const WAL: PersistentVolumeClaim = { metadata: { name: 'wal' }, spec: { accessModes: ['ReadWriteOnce'], volumeMode: 'Filesystem', resources: { requests: { storage: '1Gi' } } } };
const addWal = (s: StatefulSet): void => void s.spec.volumeClaimTemplates?.push(structuredClone(WAL));

function converged(opts: { podUpdatePolicy?: PodUpdatePolicy; claimPolicy?: 'InPlace' | 'OnDelete'; strategy?: 'Recreate' } = {}): Harness {
  const set = newSet(2, { maxUnavailable: 1 });
  if (opts.podUpdatePolicy) (set.spec.updateStrategy?.rollingUpdate as { podUpdatePolicy?: string }).podUpdatePolicy = opts.podUpdatePolicy;
  if (opts.strategy) set.spec.updateStrategy = { type: opts.strategy };
  set.spec.volumeClaimUpdatePolicy = opts.claimPolicy ?? 'InPlace';
  const h = new Harness(set, { autoReady: true });
  h.converge();
  (h.opts as { autoReady?: boolean }).autoReady = false;
  return h;
}

describe('claim templates added or removed: pods are replaced', () => {
  it('an added template replaces the highest pod (the pod template is unchanged: not a relabel), then creates its claim before the new pod', () => {
    const h = converged();
    h.update(addWal);
    assert.deepEqual(writes(h.sync()), ['deletePod web-1']);
    h.finishTerminating();
    assert.deepEqual(writes(h.sync()), ['createClaim wal-web-1', 'patchClaim data-web-1', 'createPod web-1']);
  });

  it('a removed template replaces the pods that still mount it, and keeps its claims', () => {
    const h = converged();
    h.update(addWal);
    h.opts.autoReady = true;
    h.converge();
    h.update((s) => void s.spec.volumeClaimTemplates?.pop());
    h.opts.autoReady = false;
    assert.deepEqual(writes(h.sync()), ['deletePod web-1']);
    h.opts.autoReady = true;
    h.converge();
    assert.deepEqual([...h.claims.keys()].sort(), ['data-web-0', 'data-web-1', 'wal-web-0', 'wal-web-1']);
    assert.deepEqual(h.must('web-0').spec.volumes?.map((v) => v.name), ['data']);
  });

  it('replaces the pod under Recreate, where a claim-only change relabels it', () => {
    const h = converged({ strategy: 'Recreate' });
    h.update(addWal);
    assert.deepEqual(writes(h.sync()), ['deletePod web-0', 'deletePod web-1']);
  });

  it('InPlaceIfPossible deletes the pod rather than patching its image in place', () => {
    const h = converged({ podUpdatePolicy: 'InPlaceIfPossible' });
    h.update((s) => {
      addWal(s);
      s.spec.template.spec.containers[0]!.image = 'app:v2';
    });
    assert.deepEqual(writes(h.sync()), ['deletePod web-1']);
  });

  it('InPlaceIfPossible deletes a pod of an OnDelete revision when the switch to InPlace adds a template (that revision holds no templates)', () => {
    const h = converged({ podUpdatePolicy: 'InPlaceIfPossible', claimPolicy: 'OnDelete' });
    h.update((s) => {
      s.spec.volumeClaimUpdatePolicy = 'InPlace';
      addWal(s);
      s.spec.template.spec.containers[0]!.image = 'app:v2';
    });
    assert.deepEqual(writes(h.sync()), ['deletePod web-1']);
  });

  it('InPlaceOnly halts at the highest pod, naming spec.volumeClaimTemplates, and deletes nothing', () => {
    const h = converged({ podUpdatePolicy: 'InPlaceOnly' });
    h.update(addWal);
    const plan = h.sync();
    assert.deepEqual(writes(plan), []);
    assert.deepEqual(plan.blockers.find((b) => b.kind === 'inPlaceUpdateImpossible'), { kind: 'inPlaceUpdateImpossible', pod: 'web-1', ordinal: 1, fields: ['spec.volumeClaimTemplates'] });
  });

  it('reordered templates change no pod\'s volumes: claims brought to the new revision, the pod relabelled, none deleted', () => {
    const h = converged();
    h.update(addWal);
    h.opts.autoReady = true;
    h.converge();
    h.update((s) => void s.spec.volumeClaimTemplates?.reverse());
    assert.deepEqual(writes(h.sync()), ['patchClaim wal-web-1', 'patchClaim data-web-1']);
    assert.deepEqual(writes(h.sync()), ['relabelPod web-1', 'patchClaim wal-web-0', 'patchClaim data-web-0']);
  });

  it('a pod on the old revision is not repaired for the added template (its volumes cannot change)', () => {
    const h = converged({ strategy: undefined });
    h.update((s) => {
      addWal(s);
      s.spec.updateStrategy = { type: 'OnDelete' };
    });
    assert.deepEqual(writes(h.sync()), []);
  });
});
