// The `spec` schema of a StatefulSet: apps/v1 StatefulSetSpec plus Ordinal's
// extensions. It is the CRD's schema and the strict field check's list of known fields for both
// APIs (validation/unknown-fields.ts). The pod spec is Kubernetes' own (k8s-schema.ts, generated from its
// OpenAPI), so a misspelt field in it is refused as kube-apiserver refuses it in an apps/v1 set; the claim
// spec's selector and data sources are kept as written (x-kubernetes-preserve-unknown-fields), so fields
// inside them are not checked by name. Defaults are the unconditional half of upstream's
// SetDefaults_StatefulSet (§1.4); the conditional half (`updateStrategy: {}`) and pod-template defaults
// are applied by the controller on read, as for apps/v1 objects.

import {
  DNS1123_LABEL_MESSAGE,
  IMMUTABLE,
  MAX_UNAVAILABLE_RULES,
  NOT_SUPPORTED_ACTIVE_DEADLINE,
  REQUIREMENT_RULES,
  TEMPLATE_SPEC_REQUIRED,
  SELECTOR_RULES,
  SPEC_RULES,
  UPDATE_STRATEGY_RULES,
  PROGRESS_DEADLINE_RULES,
} from './crd-rules.js';
import { MAX_CLAIM_TEMPLATES } from '../validation/claim-template-update.js';
import { templatePodSpecSchema } from './template-schema.js';
import { SELECTOR_BOUNDS } from '../validation/selector.js';
import { disruptionAwareSchema, UPDATE_ORDER_RULES } from './disruption-aware-schema.js';
import { lifecycleSchema } from './lifecycle-schema.js';
import { objectMetaSchema } from './object-meta-schema.js';
import { stepsSchema } from './steps-schema.js';
import { int32, intOrString, list, obj, opaque, rules, str, stringMap, type Schema } from './schema-dsl.js';

const maxUnavailable = rules(
  intOrString('The maximum number of pods that can be unavailable during the update: an integer ≥ 1 or a percentage 1–100% of replicas (rounded down, minimum 1).'),
  ...MAX_UNAVAILABLE_RULES,
);

const onFailure = str(
  'Ordinal extension: what a failed rollout (SafetyHalt, or Progressing=False with ProgressDeadlineExceeded) does: Halt (default) stays where it failed; Rollback aborts the update revision and brings every pod back to the last fully available revision, without writing spec.',
  { enum: ['Halt', 'Rollback'], default: 'Halt' },
);

const partition = (strategy: string) =>
  int32(`${strategy} updates only pods with an ordinal index ≥ partition; pods below keep the current revision.`, { nonNegative: true });

export const labelSelectorSchema: Schema = rules(
  obj(
    'A label query over pods that should match the replica count. It must match the pod template labels.',
    {
      matchLabels: {
        ...stringMap('{key,value} pairs; each is equivalent to a matchExpressions element with operator In.'),
        additionalProperties: { type: 'string', maxLength: SELECTOR_BOUNDS.valueLength },
        maxProperties: SELECTOR_BOUNDS.matchLabels,
      },
      matchExpressions: list(
        'A list of label selector requirements, ANDed.',
        rules(
          obj(
            'A selector that contains values, a key, and an operator that relates the key and values.',
            {
              key: str('The label key that the selector applies to.'),
              operator: str("The key's relationship to a set of values.", { enum: ['In', 'NotIn', 'Exists', 'DoesNotExist'] }),
              values: list('Values for In/NotIn; empty for Exists/DoesNotExist.', { type: 'string', maxLength: SELECTOR_BOUNDS.valueLength }, { 'x-kubernetes-list-type': 'atomic', maxItems: SELECTOR_BOUNDS.values }),
            },
            { required: ['key', 'operator'] },
          ),
          ...REQUIREMENT_RULES,
        ),
        { 'x-kubernetes-list-type': 'atomic', maxItems: SELECTOR_BOUNDS.matchExpressions },
      ),
    },
    { 'x-kubernetes-map-type': 'atomic' },
  ),
  ...SELECTOR_RULES,
  IMMUTABLE,
);

const podSpec = templatePodSpecSchema();

const podTemplate = rules(obj('The pod template of every replica (core/v1 PodTemplateSpec).', {
  metadata: { ...objectMetaSchema, description: 'Pod metadata: labels must match the selector.' },
  spec: rules(
    {
      ...podSpec,
      description: 'core/v1 PodSpec, as Kubernetes 1.37 defines it.',
      properties: { ...podSpec.properties, restartPolicy: str('Must be Always for a StatefulSet.', { enum: ['Always'] }) },
    },
    NOT_SUPPORTED_ACTIVE_DEADLINE,
  ),
}), TEMPLATE_SPEC_REQUIRED);

const quantityMap = (d: string): Schema => ({ type: 'object', description: d, additionalProperties: intOrString('A resource quantity.') });

const claimTemplate = obj('A PersistentVolumeClaim template (core/v1 PersistentVolumeClaim).', {
  apiVersion: str('v1 (optional).'),
  kind: str('PersistentVolumeClaim (optional).'),
  metadata: { ...objectMetaSchema, description: 'Claim metadata: the name is the volume name in the pod template.' },
  spec: obj('core/v1 PersistentVolumeClaimSpec.', {
    accessModes: list('Access modes.', { type: 'string' }, { 'x-kubernetes-list-type': 'atomic' }),
    selector: opaque('A label query over volumes to consider for binding.'),
    resources: obj('Requested storage.', { requests: quantityMap('Minimum resources.'), limits: quantityMap('Maximum resources.') }),
    volumeName: str('The PersistentVolume to bind to.'),
    storageClassName: str('Storage class.'),
    volumeMode: str('Filesystem or Block.'),
    dataSource: opaque('An existing snapshot or claim to populate the volume from.'),
    dataSourceRef: opaque('An object to populate the volume from.'),
    volumeAttributesClassName: str('VolumeAttributesClass of the claim.'),
  }),
  status: opaque('Ignored in a template.'),
});

const updateStrategy = rules(
  obj(
    'How pods are replaced when the template changes.',
    {
      type: str('RollingUpdate (default), OnDelete, Recreate, or the Ordinal extension EnforcedRollingUpdate.'),
      rollingUpdate: rules(obj('Parameters of the RollingUpdate strategy.', {
        partition: { ...partition('RollingUpdate'), default: 0 },
        maxUnavailable: { ...maxUnavailable, default: 1 },
        batchStartPolicy: str('Ordinal extension: under OrderedReady, Together recreates a whole batch of deleted pods at once; Ordered (default) is upstream.', {
          enum: ['Ordered', 'Together'],
          default: 'Ordered',
        }),
        ...disruptionAwareSchema,
        podUpdatePolicy: str(
          'Ordinal extension: Recreate (default) deletes a pod to update it; InPlaceIfPossible patches its container images, labels and annotations when that is all the new revision changes, else recreates it; InPlaceOnly never recreates it and halts instead.',
          { enum: ['Recreate', 'InPlaceIfPossible', 'InPlaceOnly'], default: 'Recreate' },
        ),
        inPlaceUpdateStrategy: obj('Ordinal extension: with podUpdatePolicy InPlaceIfPossible or InPlaceOnly, how a pod is drained before its in-place restart (ignored under Recreate).', {
          gracePeriodSeconds: int32(
            'Seconds the pod is NotReady (its readiness gate apps.ordinal.dev/InPlaceUpdateReady False) before it is restarted in place, so endpoints stop sending it traffic; 0 (default): no drain, and pods get no gate.',
            { nonNegative: true, default: 0 },
          ),
        }),
        onFailure,
        ...stepsSchema,
      }), ...UPDATE_ORDER_RULES),
      enforcedRollingUpdate: obj('Ordinal extension: parameters of EnforcedRollingUpdate, which replaces stuck pods of an old revision.', {
        partition: partition('EnforcedRollingUpdate'),
        maxUnavailable,
        onFailure,
        ...stepsSchema,
      }),
    },
    { default: { type: 'RollingUpdate', rollingUpdate: {} } },
  ),
  ...UPDATE_STRATEGY_RULES,
);

const retention = (when: string): Schema => str(`What happens to claims ${when}: Retain (default) or Delete.`, { enum: ['Retain', 'Delete'], default: 'Retain' });

export const specSchema: Schema = rules(
  obj(
    'The desired state of the StatefulSet: apps/v1 StatefulSetSpec plus Ordinal extensions.',
    {
      replicas: int32('Desired number of pods (default 1).', { nonNegative: true, default: 1 }),
      selector: labelSelectorSchema,
      template: podTemplate,
      volumeClaimTemplates: list('Claims that pods may reference. A template keeps its fields but labels, annotations, volumeAttributesClassName and a growing storage request; templates come and go only with volumeClaimUpdatePolicy InPlace.', claimTemplate, { 'x-kubernetes-list-type': 'atomic', maxItems: MAX_CLAIM_TEMPLATES }),
      // Immutability of serviceName and podManagementPolicy is a SPEC_RULES rule, which also sees them appear or go.
      serviceName: rules(str('The governing headless Service; pods get DNS names under it. Immutable.'), {
        rule: "self == '' || (size(self) <= 63 && self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'))",
        message: DNS1123_LABEL_MESSAGE,
      }),
      podManagementPolicy: rules(str('OrderedReady (default) or Parallel. Immutable.', { default: 'OrderedReady' }), {
        rule: "self == '' || self in ['OrderedReady', 'Parallel']",
        message: "must be 'OrderedReady' or 'Parallel'",
      }),
      updateStrategy,
      revisionHistoryLimit: int32('ControllerRevisions to keep (default 10).', { default: 10 }),
      minReadySeconds: int32('Seconds a new pod must be ready before it counts as available.', { nonNegative: true }),
      persistentVolumeClaimRetentionPolicy: obj('Lifecycle of the claims created from volumeClaimTemplates.', { whenDeleted: retention('when the set is deleted'), whenScaled: retention('when the set is scaled down') }, { default: {} }),
      ordinals: obj('Numbering of replica indices.', { start: int32('The first replica index (default 0).', { nonNegative: true }) }),
      volumeClaimUpdatePolicy: str('Ordinal extension (KEP-4650): OnDelete (default; only new claims follow the template) or InPlace (claims are patched to the template in rollout order).', {
        enum: ['OnDelete', 'InPlace'],
        default: 'OnDelete',
      }),
      lifecycle: lifecycleSchema,
      progressDeadlineSeconds: { ...rules(intOrString('Ordinal extension: seconds without progress before Progressing=False with reason ProgressDeadlineExceeded (detection only), or auto: derived from the durations the controller learned from the set\'s pods (at least 60).'), ...PROGRESS_DEADLINE_RULES), default: 600 },
    },
    { required: ['selector', 'template'] },
  ),
  ...SPEC_RULES,
);
