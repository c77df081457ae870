// The whole StatefulSet object's schema: the one list of known fields behind the CRD (cli/manifests/crd.ts)
// and the strict field check of both apps/v1 and apps.ordinal.dev/v1 objects (validation/unknown-fields.ts).

import { objectMetaSchema } from './object-meta-schema.js';
import { obj, str, type Schema } from './schema-dsl.js';
import { specSchema } from './spec-schema.js';
import { statusSchema } from './status-schema.js';

export const statefulSetSchema: Schema = obj(
  'A StatefulSet managed by Ordinal: apps/v1 StatefulSet semantics plus maxUnavailable, Recreate, EnforcedRollingUpdate, batchStartPolicy and progressDeadlineSeconds.',
  {
    apiVersion: str('APIVersion of this object: apps.ordinal.dev/v1.'),
    kind: str('Kind: StatefulSet.'),
    metadata: objectMetaSchema,
    spec: specSchema,
    status: statusSchema,
  },
  { required: ['spec'] },
);
