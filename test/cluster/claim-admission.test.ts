// The in-memory API server's admission of a PersistentVolumeClaim update, as kube-apiserver's
// (core/validation ValidatePersistentVolumeClaimUpdate, then the PersistentVolumeClaimResize plugin): the
// storage request compared by value, whether a string or a JSON number; the contract cases run the same
// refusals on kube-apiserver.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors.js';
import type { PersistentVolumeClaim, Quantity, StorageClass } from '../../src/api/types.js';
import { admitClaimUpdate } from '../../src/cluster/memory/claim-admission.js';

const GI = 1024 ** 3;

/** The bound claim `data` of class `cls`, its request and capacity as given. */
const claim = (request: Quantity, capacity: Quantity, cls = 'standard'): PersistentVolumeClaim => ({
  metadata: { name: 'data', namespace: 'default' },
  spec: { accessModes: ['ReadWriteOnce'], storageClassName: cls, resources: { requests: { storage: request } }, volumeName: 'pv-1' },
  status: { phase: 'Bound', capacity: { storage: capacity } },
});

const classes: Record<string, StorageClass> = {
  standard: { metadata: { name: 'standard' }, allowVolumeExpansion: true },
  fixed: { metadata: { name: 'fixed' }, allowVolumeExpansion: false },
};

/** The message of the refusal of `request` on `prev`, or undefined when it is admitted. */
function refusal(prev: PersistentVolumeClaim, request: Quantity): string | undefined {
  const next: PersistentVolumeClaim = { ...prev, spec: { ...prev.spec, resources: { requests: { storage: request } } } };
  try {
    admitClaimUpdate(next, prev, (name) => classes[name]);
    return undefined;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return e.message;
  }
}

const BELOW_CAPACITY = 'PersistentVolumeClaim "data" is invalid: spec.resources.requests.storage: Forbidden: field can not be less than status.capacity';

describe('claim update admission', () => {
  it('reads a request or capacity written as a JSON number as the quantity it is', () => {
    assert.equal(refusal(claim(GI, GI), 2 * GI), undefined);
    assert.equal(refusal(claim('1Gi', GI, 'fixed'), GI), undefined, 'the same size in another spelling is no expansion');
    assert.match(refusal(claim(GI, GI, 'fixed'), 2 * GI) ?? '', /forbidden: only dynamically provisioned pvc can be resized/);
    assert.equal(refusal(claim(4 * GI, 2 * GI), GI), BELOW_CAPACITY);
  });

  it('lets a request that failed to expand go down to a size above status.capacity, and refuses the capacity itself', () => {
    const failed = claim('10Gi', '1Gi');
    assert.equal(refusal(failed, '2Gi'), undefined);
    assert.equal(refusal(failed, '1Gi'), BELOW_CAPACITY);
    assert.equal(refusal(failed, String(GI)), BELOW_CAPACITY);
    assert.equal(refusal(failed, '512Mi'), BELOW_CAPACITY);
  });

  it('compares a request that goes up with the previous request only: below a capacity larger than asked is allowed', () => {
    assert.equal(refusal(claim('1Gi', '5Gi'), '2Gi'), undefined);
  });
});
