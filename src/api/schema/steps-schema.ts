// The CRD schema of a rolling block's staged-rollout fields, `paused` and `steps` (validation/rollout-steps.ts
// checks them the same way on the strict path). Both rolling blocks carry them.

import { MAX_STEPS } from '../validation/rollout-steps.js';
import { bool, int32, intOrString, list, obj, rules, str, type Schema } from './schema-dsl.js';

const duration = (d: string): Schema => rules(str(d, { maxLength: 64 }), { rule: "self.matches('^([0-9]+(\\\\.[0-9]+)?(ms|s|m|h))+$')", message: 'must be a duration such as 30s, 10m or 1h30m' });

const http = obj(
  'An HTTP check the controller makes: a GET of url every interval; the analysis passes after count checks with at most failureLimit failed, and fails at the next failure.',
  {
    url: rules(str('An http:// or https:// URL.', { maxLength: 2048 }), { rule: "self.startsWith('http://') || self.startsWith('https://')", message: 'must be an http:// or https:// URL' }),
    expectedStatus: int32('The status code a check expects (default 200).'),
    interval: duration('Between checks (default 10s).'),
    count: int32('Checks before the analysis passes (default 1).'),
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
    replicas: intOrString('Updated replicas in this step: a count or a percentage of replicas (rounded up).'),
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
