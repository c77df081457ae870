// The CRD schema of a rolling block's staged-rollout fields, `paused`, `steps` and the background `analysis`
// (validation/rollout-steps.ts checks them the same way on the strict path). Both rolling blocks carry them.

import { MAX_CONDITION_LENGTH } from '../success-condition.js';
import { ANALYSIS_POLICIES, MAX_QUERY_LENGTH, PROMETHEUS_ADDRESS_MESSAGE } from '../validation/prometheus-analysis.js';
import { HTTP_STATUS_MESSAGE, HTTP_URL_MESSAGE, MAX_STEPS, POSITIVE_DURATION, ROLLOUT_COUNT_MESSAGE, STEP_DURATION_MESSAGE, STEP_DURATION_PATTERN } from '../validation/rollout-steps.js';
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

const urlRule = (message: string) => ({
  rule: "(self.startsWith('http://') || self.startsWith('https://')) && isURL(self) && url(self).getHostname() != ''",
  message,
});

const timing = {
  interval: duration('Between checks (default 10s).'),
  count: rules(int32('Checks before the analysis passes (default 1).'), { rule: 'self >= 1', message: 'must be greater than or equal to 1' }),
  failureLimit: int32('Failed checks tolerated (default 0).', { nonNegative: true }),
};

const http = obj(
  'An HTTP check the controller makes: a GET of url every interval; the analysis passes after count checks with at most failureLimit failed, and fails at the next failure.',
  {
    url: rules(str('An http:// or https:// URL.', { maxLength: 2048 }), urlRule(HTTP_URL_MESSAGE)),
    expectedStatus: rules(int32('The status code a check expects (default 200).'), { rule: 'self >= 100 && self <= 599', message: HTTP_STATUS_MESSAGE }),
    ...timing,
    timeout: duration('Per request (default 5s).'),
  },
  { required: ['url'] },
);

const policy = (what: string): Schema =>
  str(`What a check whose query ${what} does: Pause (default) holds the rollout and checks again, Fail counts it as failed, Ignore does not count it.`, { enum: [...ANALYSIS_POLICIES] });

const query = (d: string): Schema => str(d, { maxLength: MAX_QUERY_LENGTH });

const prometheus = obj(
  "A PromQL query the controller makes of a Prometheus server every interval, judged by successCondition; the analysis passes after count checks with at most failureLimit failed, and fails at the next failure.",
  {
    address: rules(str("The Prometheus server's http:// or https:// URL.", { maxLength: 2048 }), urlRule(PROMETHEUS_ADDRESS_MESSAGE)),
    query: query('PromQL; {{revision}}, {{baselineRevision}}, {{namespace}}, {{set}} and {{pods}} (a regex of the pods on the update revision) are filled in. Its value is `result`.'),
    baselineQuery: query('PromQL with the same placeholders, {{pods}} being the pods on the baseline (current) revision. Its value is `baseline`.'),
    successCondition: str('CEL over result (and baseline): true passes the check, e.g. result <= baseline * 1.5.', { maxLength: MAX_CONDITION_LENGTH }),
    ...timing,
    timeout: duration('Per query (default 5s).'),
    noDataPolicy: policy('returns no value'),
    errorPolicy: policy('cannot be made or judged'),
  },
  { required: ['address', 'query', 'successCondition'] },
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
    analysis: rules(obj('A check before the next step: one of http, prometheus or readiness. A failed analysis fails the rollout (onFailure decides what follows).', { http, prometheus, readiness }), {
      rule: '(has(self.http) ? 1 : 0) + (has(self.prometheus) ? 1 : 0) + (has(self.readiness) ? 1 : 0) == 1',
      message: 'exactly one of http, prometheus and readiness',
    }),
  }),
  { rule: 'has(self.partition) != has(self.replicas)', message: 'exactly one of partition and replicas' },
  { rule: '!(has(self.pause) && has(self.analysis))', message: 'a step waits for a pause or an analysis, not both' },
);

/** The background check's http or prometheus: a step's, without count (it runs until the rollout completes). */
const withoutCount = (check: Schema): Schema =>
  rules(check, { rule: '!has(self.count)', message: ROLLOUT_COUNT_MESSAGE, reason: 'FieldValueForbidden', fieldPath: '.count' });

const rolloutAnalysis = rules(
  obj('Ordinal extension: a check made all through the rollout, from its first updated pod until it completes: one of http or prometheus. A failed analysis fails the rollout (onFailure decides what follows).', {
    http: withoutCount(http),
    prometheus: withoutCount(prometheus),
  }),
  { rule: 'has(self.http) != has(self.prometheus)', message: 'exactly one of http and prometheus' },
);

export const stepsSchema: Record<string, Schema> = {
  paused: bool('Ordinal extension: the user\'s pause; no pod or claim is updated while true. Scaling, replacing failed pods and (EnforcedRollingUpdate) replacing broken old pods go on.'),
  steps: list('Ordinal extension: a staged rollout, step by step (status.currentStepIndex says where it is).', step, { maxItems: MAX_STEPS }),
  analysis: rolloutAnalysis,
};
