// The CustomResourceDefinition of apps.ordinal.dev/v1 StatefulSet: the apps/v1
// schema plus extensions, status and scale subresources so `kubectl scale` and HPA work, and printer
// columns. The schema source is api/schema/.

import { Resources } from '../../api/client.js';
import { dns1123Label } from '../../api/schema/crd-rules.js';
import { int32Bounded, rules, type Schema } from '../../api/schema/schema-dsl.js';
import { statefulSetSchema } from '../../api/schema/statefulset-schema.js';

const res = Resources.ordinalStatefulSets;
export const CRD_NAME = `${res.plural}.${res.group}`;
export const SHORT_NAMES = ['osts'];

/**
 * The whole object's schema. A CRD may not describe root metadata (the API server checks ObjectMeta
 * itself), so it is a plain object here; the root rule holds upstream's DNS-1123 *label* rule for the name.
 */
export const rootSchema: Schema = rules(
  int32Bounded({ ...statefulSetSchema, properties: { ...statefulSetSchema.properties, metadata: { type: 'object' } } }),
  // Root rules may read metadata.name but may not point fieldPath into metadata.
  ...dns1123Label('self.metadata.name'),
);

const column = (name: string, type: string, jsonPath: string, description: string, priority?: number) => ({
  name,
  type,
  jsonPath,
  description,
  ...(priority ? { priority } : {}),
});

export const printerColumns = [
  column('Replicas', 'integer', '.spec.replicas', 'Desired replicas'),
  column('Ready', 'integer', '.status.readyReplicas', 'Ready replicas'),
  column('Available', 'integer', '.status.availableReplicas', 'Replicas ready for minReadySeconds'),
  column('Updated', 'integer', '.status.updatedReplicas', 'Replicas at the update revision'),
  column('Strategy', 'string', '.spec.updateStrategy.type', 'Update strategy'),
  column('Age', 'date', '.metadata.creationTimestamp', 'Time since creation'),
  column('Revision', 'string', '.status.updateRevision', 'Update revision', 1),
];

export function buildCrd(labels: Record<string, string>): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: CRD_NAME, labels },
    spec: {
      group: res.group,
      names: { kind: res.kind, listKind: `${res.kind}List`, plural: res.plural, singular: 'statefulset', shortNames: SHORT_NAMES, categories: ['all', 'ordinal'] },
      scope: 'Namespaced',
      versions: [
        {
          name: res.version,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: rootSchema },
          subresources: {
            status: {},
            // upstream apps/v1 /scale reports the selector too; the controller writes status.selector.
            scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' },
          },
          additionalPrinterColumns: printerColumns,
        },
      ],
    },
  };
}
