// Claim templates and revisions (KEP-4650): only a volumeClaimUpdatePolicy: InPlace set keeps its claim
// templates in the revision. Every other set — apps/v1, or apps.ordinal.dev/v1 with the default OnDelete —
// gets upstream's revision data and name, so moving a set from apps/v1 rolls nothing and a claim template
// edit under OnDelete is not a new revision.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyRevision, newRevision } from '../../src/api/revision/hash.js';
import { ORDINAL_V1, type StatefulSet } from '../../src/api/types.js';
import { newSet } from './helpers.js';

const claims = (storage: string) => [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } } }];
function setWith(policy: 'OnDelete' | 'InPlace' | undefined, storage: string, apiVersion = ORDINAL_V1): StatefulSet {
  const set = newSet('app:v1');
  return { ...set, apiVersion, spec: { ...set.spec, volumeClaimTemplates: claims(storage), ...(policy ? { volumeClaimUpdatePolicy: policy } : {}) } };
}
const name = (set: StatefulSet) => newRevision(set, 1, 0).metadata.name;

describe('claim templates in revisions', () => {
  it('names an OnDelete apps.ordinal.dev/v1 set\'s revision as upstream names the apps/v1 set\'s, whatever its claims', () => {
    const upstream = name(setWith(undefined, '1Gi', 'apps/v1'));
    assert.equal(name(setWith('OnDelete', '1Gi')), upstream);
    assert.equal(name(setWith('OnDelete', '5Gi')), upstream, 'a claim template edit is no new revision');
  });

  it('makes a claim template edit a new revision under InPlace, and restores the claims with the revision', () => {
    const small = setWith('InPlace', '1Gi');
    const large = setWith('InPlace', '5Gi');
    assert.notEqual(name(small), name(large));
    assert.notEqual(name(small), name(setWith('OnDelete', '1Gi')));
    const restored = applyRevision(large, newRevision(small, 1, 0));
    assert.equal(restored.spec.volumeClaimTemplates?.[0]?.spec.resources?.requests?.storage, '1Gi');
    assert.equal(applyRevision(small, newRevision(setWith('OnDelete', '1Gi'), 1, 0)).spec.volumeClaimTemplates?.[0]?.spec.resources?.requests?.storage, '1Gi');
  });
});
