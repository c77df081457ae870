// Which set keys a claim event concerns. Upstream's controller ignores claim events; an apps.ordinal.dev/v1
// set reports its claims in status.volumeClaimTemplates (KEP-4650), so a claim that binds or grows brings
// the set whose template names it back to sync; a StorageClass that changes (allowVolumeExpansion turned on)
// brings back the InPlace sets whose templates may use it. apps/v1 sets keep upstream's behaviour.

import { ORDINAL_V1, type PersistentVolumeClaim, type StorageClass } from '../api/types.js';
import { claimOrdinal, claimTemplates } from '../controller/model/claim-identity.js';
import type { SetTargets } from './set-targets.js';

/** Keys of the apps.ordinal.dev/v1 sets in the claim's namespace whose templates would name it. */
export function keysForClaim(targets: SetTargets, claim: PersistentVolumeClaim): string[] {
  const name = claim.metadata.name ?? '';
  return targets
    .setsIn(claim.metadata.namespace)
    .filter(({ set }) => set.apiVersion === ORDINAL_V1 && claimTemplates(set).some((t) => claimOrdinal(set, t, name) !== undefined))
    .map(({ key }) => key);
}

/** Keys of the InPlace sets, in every namespace, with a claim template of the class (or of the default one). */
export function keysForStorageClass(targets: SetTargets, cls: StorageClass): string[] {
  const name = cls.metadata.name ?? '';
  return targets
    .setsIn(undefined)
    .filter(({ set }) => set.spec.volumeClaimUpdatePolicy === 'InPlace' && claimTemplates(set).some((t) => (t.spec?.storageClassName ?? name) === name))
    .map(({ key }) => key);
}
