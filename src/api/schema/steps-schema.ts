// The CRD schema of a rolling block's staged-rollout fields, `paused` and `steps` (validation/rollout-steps.ts
// checks them the same way on the strict path). Both rolling blocks carry them.

import { HTTP_STATUS_MESSAGE, HTTP_URL_MESSAGE, MAX_STEPS, POSITIVE_DURATION, STEP_DURATION_MESSAGE, STEP_DURATION_PATTERN } from '../validation/rollout-steps.js';
import { MAX_UNAVAILABLE_RULES } from './crd-rules.js';
import { bool, int32, intOrString, list, obj, rules, str, type Schema } from './schema-dsl.js';

/** A regular expression as a CEL string literal (its backslashes escaped). */
const celPattern = (pattern: string): string => `'${pattern.replaceAll('\\', '\\\\')}'`;

const duration = (d: string): Schema =>
  rules(
    str(d, { maxLength: 64 }),
    { rule: `self.matches(${celPattern(STEP_DURATION_PATTERN)})`, message: STEP_DURATION_MESSAGE },
    // every number 0: a zero duration, which validateSteps refuses as well
    { rule: `!self.matches(${celPattern('^(0+(\\.0+)?(ms|s|m|h))+$')})`, message: POSITIVE_DURATION },
  );

/** A step's `replicas`: maxUnavailable's checks but its "cannot be 0" (no replica updated in a step is fine). */
const stepReplicas = rules(
  // bounded, so that the rules' cost over MAX_STEPS steps stays within kube-apiserver's budget
  { ...intOrString('Updated replicas in this step: a count or a percentage of replicas (rounded up).'), maxLength: 8 },
  ...MAX_UNAVAILABLE_RULES.filter((r) => r.message !== 'cannot be 0'),
);

const http = obj(
  'An HTTP check the controller makes: a GET of url every interval; the analysis passes after count checks with at most failureLimit failed, and fails at the next failure.',
  {
    url: rules(str('An http:// or https:// URL.', { maxLength: 2048 }), {
      rule: "(self.startsWith('http://') || self.startsWith('https://')) && isURL(self) && url(self).getHostname() != ''",
      message: HTTP_URL_MESSAGE,
    }),
    expectedStatus: rules(int32('The status code a check expects (default 200).'), { rule: 'self >= 100 && self <= 599', message: HTTP_STATUS_MESSAGE }),
    interval: duration('Between checks (default 10s).'),
    count: rules(int32('Checks before the analysis passes (default 1).'), { rule: 'self >= 1', message: 'must be greater than or equal to 1' }),
    failureLimit: int32('Failed checks tolerated (default 0).', { nonNegative: true }),
    timeout: duration('Per request (default 5s).'),
  },
  { required: ['url'] },
);

const readiness = obj(
  "The set's own readiness: passes once every replica has stayed available for duration; each time an updated replica is seen unavailable the window starts again, and more than failureLimit such times fail it.",
  { duration: duration('How long every replica must stay available.'), failureLimit: int32('Times a replica may go unavailable (default 0).', { nonNegative: true }) },
  { required: ['duration'] },
);

const step = rules(
  obj('A step: how far the rollout goes (partition or replicas), then what must happen before the next step (pause or analysis).', {
    partition: int32('Pods with an index ≥ partition are updated in this step.', { nonNegative: true }),
    replicas: stepReplicas,
    pause: obj('Wait before the next step: {} until promoted (kubectl ordinal rollout promote); duration: a bake time, counted while every updated replica stays available.', {
      duration: duration('The bake time.'),
    }),
    analysis: rules(obj('A check before the next step: one of http or readiness. A failed analysis fails the rollout (onFailure decides what follows).', { http, readiness }), {
      rule: 'has(self.http) != has(self.readiness)',
      message: 'exactly one of http and readiness',
    }),
  }),
  { rule: 'has(self.partition) != has(self.replicas)', message: 'exactly one of partition and replicas' },
  { rule: '!(has(self.pause) && has(self.analysis))', message: 'a step waits for a pause or an analysis, not both' },
);

export const stepsSchema: Record<string, Schema> = {
  paused: bool('Ordinal extension: the user\'s pause; no pod or claim is updated while true. Scaling, replacing failed pods and (EnforcedRollingUpdate) replacing broken old pods go on.'),
  steps: list('Ordinal extension: a staged rollout, step by step (status.currentStepIndex says where it is).', step, { maxItems: MAX_STEPS }),
};
