// The `status` schema: apps/v1 StatefulSetStatus plus `selector`, the
// string form of spec.selector that the scale subresource reports (HPA needs it), volumeClaimTemplates
// (KEP-4650's per-template claim status), the abort record of onFailure: Rollback, and the
// Progressing/Available conditions Ordinal sets on every strategy.

import { COLLISION_COUNT_RULE, NON_NEGATIVE_RULE, STATUS_RULES } from './crd-rules.js';
import { bool, int32, int64, list, obj, rules, str, type Schema } from './schema-dsl.js';

const counter = (d: string): Schema => rules(int32(d), NON_NEGATIVE_RULE);

/** What an analysis has seen so far (status.stepAnalysis, status.rolloutAnalysis). */
const analysisFields: Record<string, Schema> = {
  successful: counter('Checks that passed.'),
  failed: counter('Checks that failed.'),
  inconclusive: counter('Prometheus: checks that gave no verdict (no data, or an error) and were not counted as failed.'),
  paused: bool('Prometheus: the last check gave no verdict and its policy is Pause, so the rollout holds.'),
  lastCheckTime: str('The last check.', { format: 'date-time' }),
  message: str('What the last check saw.'),
};

const condition = obj(
  'A StatefulSet condition: Progressing or Available.',
  {
    type: str('Condition type.'),
    status: str('True, False or Unknown.', { enum: ['True', 'False', 'Unknown'] }),
    lastTransitionTime: str('When the status last changed.', { format: 'date-time' }),
    lastUpdateTime: str('When the condition was last written.', { format: 'date-time' }),
    reason: str('Machine-readable reason, e.g. RollingUpdateInProgress, RolloutCompleted, ProgressDeadlineExceeded.'),
    message: str('Human-readable detail.'),
  },
  { required: ['type', 'status'] },
);

const claimTemplate = obj(
  'How the claims of the replicas in range stand against one claim template (KEP-4650).',
  {
    name: str('The claim template.'),
    compatible: counter('Claims whose capacity, labels, annotations and fixed fields meet the template.'),
    updating: counter('Claims being expanded.'),
    overSized: counter('Claims larger than the template asks.'),
    totalCapacity: { type: 'string', description: 'The sum of the claims\' capacities.' },
  },
  { required: ['name'] },
);

export const statusSchema: Schema = rules(
  obj('The observed state, written by the controller through the status subresource.', {
    observedGeneration: rules(int64('The generation this status describes.'), NON_NEGATIVE_RULE),
    replicas: counter('Pods created by the controller.'),
    readyReplicas: counter('Pods with a Ready condition.'),
    currentReplicas: counter('Pods at currentRevision.'),
    updatedReplicas: counter('Pods at updateRevision.'),
    availableReplicas: counter('Pods ready for at least minReadySeconds.'),
    currentRevision: str('The revision of the pods below the partition / before the rollout.'),
    updateRevision: str('The revision the rollout moves pods to.'),
    collisionCount: rules(counter('Hash collisions of ControllerRevision names.'), COLLISION_COUNT_RULE),
    conditions: list('Latest observations of the set.', condition, { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] }),
    selector: str('spec.selector in string form, for the scale subresource (labelSelectorPath).'),
    volumeClaimTemplates: list('Ordinal extension: per claim template, its claims of the replicas in range.', claimTemplate, {
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    }),
    abortedRevision: str('Ordinal extension (onFailure: Rollback): the update revision whose rollout failed and was aborted; pods are brought back to currentRevision until the template changes or the rollout is retried.'),
    lastAvailableRevision: str('Ordinal extension (onFailure: Rollback): the last revision on which every replica was updated and available, where a failed rollout goes back to.'),
    currentStepIndex: counter('Ordinal extension (steps): the step the rollout is at; steps.length once every step passed.'),
    currentStepState: str('Ordinal extension (steps): what the current step waits for.', { enum: ['Updating', 'Paused', 'Baking', 'Analyzing', 'Failed', 'Completed'] }),
    currentStepSince: str('Ordinal extension (steps): since when the step is in that state.', { format: 'date-time' }),
    stepRevision: str('Ordinal extension (steps): the update revision the steps run for; a new one starts them again.'),
    stepAnalysis: obj('Ordinal extension (steps): the current step\'s analysis so far.', analysisFields),
    rolloutAnalysis: obj('Ordinal extension (rollingUpdate.analysis): the rollout\'s background check so far.', {
      revision: str('The update revision it checks; a new one starts it again.'),
      since: str('When it started: at the first updated pod that was Running and Ready, or the last retry.', { format: 'date-time' }),
      ...analysisFields,
    }),
    pauseConditions: list(
      'Ordinal extension: why the rollout does not go on: UserPause (spec paused), StepPause, AnalysisRunning, AnalysisInconclusive, SafetyHalt.',
      obj('A pause.', { reason: str('Why.', { enum: ['UserPause', 'StepPause', 'AnalysisRunning', 'AnalysisInconclusive', 'SafetyHalt'] }), since: str('Since when.', { format: 'date-time' }) }, { required: ['reason', 'since'] }),
      { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['reason'] },
    ),
    observedRolloutRetry: str('Ordinal extension (onFailure: Rollback): the value of the apps.ordinal.dev/rollout-retry annotation the controller last acted on.'),
  }),
  ...STATUS_RULES,
);
