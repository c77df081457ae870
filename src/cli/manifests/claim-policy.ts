// The ValidatingAdmissionPolicy that holds the apps.ordinal.dev/v1 claim template rules the CRD's own CEL
// cannot hold within its cost budget (api/schema/crd-rules.ts): per template matched by name, the fixed fields
// stay and the storage request does not decrease. It ships with the CRD (deploy/crd.yaml, the chart's crds/): it belongs to
// the API, not to a release of the controller.

import { Resources } from '../../api/client.js';
import { CLAIM_FIXED_FIELDS, CLAIM_STORAGE_GROWS } from '../../api/schema/crd-rules.js';

export const CLAIM_POLICY_NAME = 'statefulsets.apps.ordinal.dev-claim-storage';

export function buildClaimPolicy(labels: Record<string, string>): object[] {
  const res = Resources.ordinalStatefulSets;
  const metadata = { name: CLAIM_POLICY_NAME, labels };
  return [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata,
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: [{ apiGroups: [res.group], apiVersions: [res.version], operations: ['UPDATE'], resources: [res.plural] }] },
        validations: [CLAIM_FIXED_FIELDS, CLAIM_STORAGE_GROWS].map((v) => ({ ...v, reason: 'Invalid' })),
      },
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata,
      spec: { policyName: CLAIM_POLICY_NAME, validationActions: ['Deny'] },
    },
  ];
}
