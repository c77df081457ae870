// One table of valid and invalid apps.ordinal.dev/v1 StatefulSets, read by two tests: the unit test
// checks validateStatefulSet against it (crd-validation.test.ts), and the end-to-end test checks the
// CRD's schema and CEL rules on a real kube-apiserver against it (test/e2e/kube-crd.test.ts). So the
// CRD and the controller-side validation are held to the same verdicts and field paths.

import type { StatefulSet } from '../../src/api/types.js';

export interface CrdCase {
  desc: string;
  mutate(set: Mutable): void;
  /** The field both must name; undefined = both accept. */
  path?: string;
  /** Set when the CRD accepts by design and only the controller rejects: why CEL leaves it out. */
  controllerOnly?: string;
}

export interface UpdateCase {
  desc: string;
  /** The stored set before the update (default: baseSet). */
  base?(set: Mutable): void;
  mutate(set: Mutable): void;
  /** undefined = the update is allowed. */
  path?: string;
  /** Where the CRD reports it when CEL cannot name the field itself (a list index); default `path`. */
  crdPath?: string;
  /** Words both messages must carry. */
  says?: string;
  /** Set when the CRD allows it by design and only the controller's validation forbids it: why CEL leaves it out. */
  controllerOnly?: string;
}

/** A set with one claim template `data` of 1Gi (the stored side of the claim template cases). */
function withClaims(s: Mutable): void {
  s.spec.volumeClaimTemplates = [
    { metadata: { name: 'data', labels: { tier: 'db' } }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'standard', resources: { requests: { storage: '1Gi' } } } },
  ];
}
const LOGS = { metadata: { name: 'logs' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
/** withClaims and a second template `logs`. */
function withTwoClaims(s: Mutable): void {
  withClaims(s);
  s.spec.volumeClaimTemplates.push(structuredClone(LOGS));
}
/** The stored set of `base` with volumeClaimUpdatePolicy: InPlace. */
const inPlace = (base: (s: Mutable) => void) => (s: Mutable): void => {
  base(s);
  s.spec.volumeClaimUpdatePolicy = 'InPlace';
};
const claim = (s: Mutable): Mutable => s.spec.volumeClaimTemplates[0];
const claimTemplates = (n: number): Mutable[] =>
  Array.from({ length: n }, (_, i) => ({ metadata: { name: `d${i}` }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }));
const STORAGE = 'spec.volumeClaimTemplates[0].spec.resources.requests[storage]';

// The table edits plain JSON.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Mutable = any;

export function baseSet(namespace: string, name = 'web'): StatefulSet {
  return {
    apiVersion: 'apps.ordinal.dev/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace },
    spec: {
      replicas: 3,
      serviceName: 'web',
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
    },
  };
}

const strategy = (s: Mutable, u: object) => (s.spec.updateStrategy = u);
const ru = (s: Mutable, r: object) => strategy(s, { type: 'RollingUpdate', rollingUpdate: r });
const PROM = { address: 'http://prometheus.monitoring:9090', query: 'sum(rate(errors_total{namespace="{{namespace}}",pod=~"{{pods}}"}[1m]))', successCondition: 'result < 0.05' };
const STEP0 = 'spec.updateStrategy.rollingUpdate.steps[0].analysis';

export const CREATE_CASES: CrdCase[] = [
  { desc: 'a minimal set', mutate: () => {} },
  { desc: 'maxUnavailable as a percentage', mutate: (s) => ru(s, { maxUnavailable: '50%', partition: 1 }) },
  { desc: 'maxUnavailable 100%', mutate: (s) => ru(s, { maxUnavailable: '100%' }) },
  { desc: 'maxUnavailable above replicas', mutate: (s) => ru(s, { maxUnavailable: 50 }) },
  { desc: 'OnDelete', mutate: (s) => strategy(s, { type: 'OnDelete' }) },
  { desc: 'Recreate', mutate: (s) => strategy(s, { type: 'Recreate' }) },
  { desc: 'EnforcedRollingUpdate with its parameters', mutate: (s) => strategy(s, { type: 'EnforcedRollingUpdate', enforcedRollingUpdate: { partition: 1, maxUnavailable: '25%' } }) },
  { desc: 'batchStartPolicy Together', mutate: (s) => ru(s, { maxUnavailable: 2, batchStartPolicy: 'Together' }) },
  { desc: 'respectPodDisruptionBudgets', mutate: (s) => ru(s, { maxUnavailable: 3, respectPodDisruptionBudgets: true }) },
  { desc: 'topologyKey', mutate: (s) => ru(s, { maxUnavailable: 2, topologyKey: 'topology.kubernetes.io/zone' }) },
  { desc: 'updateOrder Priority by role', mutate: (s) => ru(s, { maxUnavailable: 2, updateOrder: 'Priority', priority: { label: 'role', values: ['replica', 'primary'] } }) },
  { desc: 'podUpdatePolicy InPlaceIfPossible', mutate: (s) => ru(s, { podUpdatePolicy: 'InPlaceIfPossible' }) },
  { desc: 'podUpdatePolicy InPlaceOnly', mutate: (s) => ru(s, { maxUnavailable: 2, podUpdatePolicy: 'InPlaceOnly' }) },
  { desc: 'a drain before in-place restarts', mutate: (s) => ru(s, { podUpdatePolicy: 'InPlaceIfPossible', inPlaceUpdateStrategy: { gracePeriodSeconds: 30 } }) },
  { desc: 'onFailure Rollback', mutate: (s) => ru(s, { onFailure: 'Rollback' }) },
  { desc: 'EnforcedRollingUpdate with onFailure Rollback', mutate: (s) => strategy(s, { type: 'EnforcedRollingUpdate', enforcedRollingUpdate: { partition: 0, maxUnavailable: 1, onFailure: 'Rollback' } }) },
  { desc: 'Parallel pod management', mutate: (s) => (s.spec.podManagementPolicy = 'Parallel') },
  { desc: 'progressDeadlineSeconds above minReadySeconds', mutate: (s) => Object.assign(s.spec, { minReadySeconds: 10, progressDeadlineSeconds: 30 }) },
  { desc: 'progressDeadlineSeconds auto', mutate: (s) => Object.assign(s.spec, { minReadySeconds: 10, progressDeadlineSeconds: 'auto' }) },
  { desc: 'a start ordinal', mutate: (s) => (s.spec.ordinals = { start: 5 }) },
  { desc: 'Delete retention', mutate: (s) => (s.spec.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Delete', whenScaled: 'Delete' }) },
  { desc: '16 claim templates', mutate: (s) => (s.spec.volumeClaimTemplates = claimTemplates(16)) },
  { desc: 'a matchExpressions selector', mutate: (s) => (s.spec.selector = { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] }) },
  {
    desc: 'a staged rollout: paused, and steps of every kind',
    mutate: (s) =>
      ru(s, {
        paused: true,
        steps: [
          { replicas: 1, pause: { duration: '10m' } },
          { replicas: '25%', analysis: { http: { url: 'https://canary.example/health', expectedStatus: 204, interval: '30s', count: 3, failureLimit: 1, timeout: '1.5s' } } },
          { partition: 1, analysis: { readiness: { duration: '1h30m', failureLimit: 0 } } },
          { replicas: '50%', pause: {} },
          { replicas: '100%' },
        ],
      }),
  },
  { desc: 'EnforcedRollingUpdate with steps', mutate: (s) => strategy(s, { type: 'EnforcedRollingUpdate', enforcedRollingUpdate: { partition: 0, maxUnavailable: 1, paused: false, steps: [{ replicas: 0, pause: {} }, { replicas: '0%' }] } }) },
  {
    desc: 'a prometheus analysis of a step, with a baseline, and of the whole rollout',
    mutate: (s) =>
      ru(s, {
        steps: [{ replicas: 1, analysis: { prometheus: { ...PROM, baselineQuery: 'sum(rate(errors_total{pod=~"{{pods}}"}[1m]))', successCondition: 'result <= baseline * 1.5', interval: '30s', count: 3, failureLimit: 1, timeout: '2s', noDataPolicy: 'Fail', errorPolicy: 'Ignore' } } }],
        analysis: { prometheus: { ...PROM, interval: '1m', failureLimit: 2, noDataPolicy: 'Pause' } },
      }),
  },
  { desc: 'an http analysis of the whole rollout', mutate: (s) => ru(s, { analysis: { http: { url: 'http://canary.example/health', interval: '15s' } } }) },
  { desc: 'a prometheus analysis without address', mutate: (s) => ru(s, { steps: [{ replicas: 1, analysis: { prometheus: { ...PROM, address: undefined } } }] }), path: `${STEP0}.prometheus.address` },
  { desc: 'a prometheus address that is not a URL', mutate: (s) => ru(s, { steps: [{ replicas: 1, analysis: { prometheus: { ...PROM, address: 'prometheus:9090' } } }] }), path: `${STEP0}.prometheus.address` },
  { desc: 'a prometheus analysis without query', mutate: (s) => ru(s, { steps: [{ replicas: 1, analysis: { prometheus: { ...PROM, query: undefined } } }] }), path: `${STEP0}.prometheus.query` },
  { desc: 'a prometheus analysis without successCondition', mutate: (s) => ru(s, { steps: [{ replicas: 1, analysis: { prometheus: { ...PROM, successCondition: undefined } } }] }), path: `${STEP0}.prometheus.successCondition` },
  { desc: 'an unknown noDataPolicy', mutate: (s) => ru(s, { steps: [{ replicas: 1, analysis: { prometheus: { ...PROM, noDataPolicy: 'Retry' } } }] }), path: `${STEP0}.prometheus.noDataPolicy` },
  { desc: 'an unknown errorPolicy', mutate: (s) => ru(s, { analysis: { prometheus: { ...PROM, errorPolicy: 'Skip' } } }), path: 'spec.updateStrategy.rollingUpdate.analysis.prometheus.errorPolicy' },
  { desc: 'a prometheus count of 0', mutate: (s) => ru(s, { steps: [{ replicas: 1, analysis: { prometheus: { ...PROM, count: 0 } } }] }), path: `${STEP0}.prometheus.count` },
  { desc: 'a step analysis with http and prometheus', mutate: (s) => ru(s, { steps: [{ replicas: 1, analysis: { http: { url: 'http://a.example' }, prometheus: PROM } }] }), path: STEP0 },
  { desc: 'a rollout analysis with neither check', mutate: (s) => ru(s, { analysis: {} }), path: 'spec.updateStrategy.rollingUpdate.analysis' },
  { desc: 'a rollout analysis with a count', mutate: (s) => ru(s, { analysis: { prometheus: { ...PROM, count: 3 } } }), path: 'spec.updateStrategy.rollingUpdate.analysis.prometheus.count' },
  {
    desc: 'a successCondition that is not CEL',
    mutate: (s) => ru(s, { steps: [{ replicas: 1, analysis: { prometheus: { ...PROM, successCondition: 'result <' } } }] }),
    path: `${STEP0}.prometheus.successCondition`,
    controllerOnly: 'the CRD cannot compile a CEL expression held in a field; the controller compiles it with the same library it evaluates it with',
  },
  {
    desc: 'a successCondition over baseline without a baselineQuery',
    mutate: (s) => ru(s, { steps: [{ replicas: 1, analysis: { prometheus: { ...PROM, successCondition: 'result <= baseline' } } }] }),
    path: `${STEP0}.prometheus.successCondition`,
    controllerOnly: 'which variables a CEL expression names is known only by compiling it',
  },
  {
    desc: 'a query with an unknown placeholder',
    mutate: (s) => ru(s, { steps: [{ replicas: 1, analysis: { prometheus: { ...PROM, query: 'up{pod=~"{{pod}}"}' } } }] }),
    path: `${STEP0}.prometheus.query`,
    controllerOnly: 'a regular expression over a 4096-character query in each of 32 steps costs more than the CRD budget allows',
  },
  { desc: 'negative replicas', mutate: (s) => (s.spec.replicas = -1), path: 'spec.replicas' },
  { desc: 'negative minReadySeconds', mutate: (s) => (s.spec.minReadySeconds = -1), path: 'spec.minReadySeconds' },
  { desc: 'a negative start ordinal', mutate: (s) => (s.spec.ordinals = { start: -1 }), path: 'spec.ordinals.start' },
  { desc: 'a negative partition', mutate: (s) => ru(s, { partition: -1 }), path: 'spec.updateStrategy.rollingUpdate.partition' },
  { desc: 'maxUnavailable 0', mutate: (s) => ru(s, { maxUnavailable: 0 }), path: 'spec.updateStrategy.rollingUpdate.maxUnavailable' },
  { desc: 'maxUnavailable -1', mutate: (s) => ru(s, { maxUnavailable: -1 }), path: 'spec.updateStrategy.rollingUpdate.maxUnavailable' },
  { desc: 'maxUnavailable 0%', mutate: (s) => ru(s, { maxUnavailable: '0%' }), path: 'spec.updateStrategy.rollingUpdate.maxUnavailable' },
  { desc: 'maxUnavailable 101%', mutate: (s) => ru(s, { maxUnavailable: '101%' }), path: 'spec.updateStrategy.rollingUpdate.maxUnavailable' },
  { desc: 'maxUnavailable "5" without %', mutate: (s) => ru(s, { maxUnavailable: '5' }), path: 'spec.updateStrategy.rollingUpdate.maxUnavailable' },
  { desc: 'enforcedRollingUpdate.maxUnavailable 0', mutate: (s) => strategy(s, { type: 'EnforcedRollingUpdate', enforcedRollingUpdate: { maxUnavailable: 0 } }), path: 'spec.updateStrategy.enforcedRollingUpdate.maxUnavailable' },
  { desc: 'an unknown podManagementPolicy', mutate: (s) => (s.spec.podManagementPolicy = 'Random'), path: 'spec.podManagementPolicy' },
  { desc: 'an unknown update strategy', mutate: (s) => strategy(s, { type: 'BlueGreen' }), path: 'spec.updateStrategy' },
  { desc: 'rollingUpdate with OnDelete', mutate: (s) => strategy(s, { type: 'OnDelete', rollingUpdate: { partition: 1 } }), path: 'spec.updateStrategy.rollingUpdate' },
  { desc: 'enforcedRollingUpdate with RollingUpdate', mutate: (s) => strategy(s, { type: 'RollingUpdate', enforcedRollingUpdate: { partition: 1 } }), path: 'spec.updateStrategy.enforcedRollingUpdate' },
  { desc: 'an unknown batchStartPolicy', mutate: (s) => ru(s, { batchStartPolicy: 'Sometimes' }), path: 'spec.updateStrategy.rollingUpdate.batchStartPolicy' },
  { desc: 'a topologyKey that is not a label key', mutate: (s) => ru(s, { topologyKey: 'zone/of/node' }), path: 'spec.updateStrategy.rollingUpdate.topologyKey' },
  { desc: 'an unknown updateOrder', mutate: (s) => ru(s, { updateOrder: 'Role' }), path: 'spec.updateStrategy.rollingUpdate.updateOrder' },
  { desc: 'updateOrder Priority without priority', mutate: (s) => ru(s, { updateOrder: 'Priority' }), path: 'spec.updateStrategy.rollingUpdate.priority' },
  { desc: 'priority without updateOrder Priority', mutate: (s) => ru(s, { priority: { label: 'role' } }), path: 'spec.updateStrategy.rollingUpdate.priority' },
  { desc: 'a priority label that is not a label key', mutate: (s) => ru(s, { updateOrder: 'Priority', priority: { label: 'a/b/c' } }), path: 'spec.updateStrategy.rollingUpdate.priority.label' },
  { desc: 'respectPodDisruptionBudgets not a boolean', mutate: (s) => ru(s, { respectPodDisruptionBudgets: 'yes' }), path: 'spec.updateStrategy.rollingUpdate.respectPodDisruptionBudgets' },
  { desc: 'an unknown podUpdatePolicy', mutate: (s) => ru(s, { podUpdatePolicy: 'InPlace' }), path: 'spec.updateStrategy.rollingUpdate.podUpdatePolicy' },
  { desc: 'a negative drain', mutate: (s) => ru(s, { podUpdatePolicy: 'InPlaceIfPossible', inPlaceUpdateStrategy: { gracePeriodSeconds: -1 } }), path: 'spec.updateStrategy.rollingUpdate.inPlaceUpdateStrategy.gracePeriodSeconds' },
  { desc: 'an unknown onFailure', mutate: (s) => ru(s, { onFailure: 'Retry' }), path: 'spec.updateStrategy.rollingUpdate.onFailure' },
  { desc: 'a preUpdate http hook', mutate: (s) => (s.spec.lifecycle = { preUpdate: { http: { url: 'http://db-switchover.example/pre-update', expectedStatus: 204, timeoutSeconds: 2 }, timeoutSeconds: 120, failurePolicy: 'Ignore' } }) },
  { desc: 'a preUpdate labels handler', mutate: (s) => (s.spec.lifecycle = { preUpdate: { labelsHandler: { 'db.example/switched-over': 'true' }, failurePolicy: 'Fail' } }) },
  { desc: 'a preUpdate hook with both handlers', mutate: (s) => (s.spec.lifecycle = { preUpdate: { http: { url: 'http://a.example' }, labelsHandler: { a: 'b' } } }), path: 'spec.lifecycle.preUpdate' },
  { desc: 'a preUpdate hook with no handler', mutate: (s) => (s.spec.lifecycle = { preUpdate: { timeoutSeconds: 10 } }), path: 'spec.lifecycle.preUpdate' },
  { desc: 'a preUpdate http hook without url', mutate: (s) => (s.spec.lifecycle = { preUpdate: { http: { expectedStatus: 200 } } }), path: 'spec.lifecycle.preUpdate.http.url' },
  { desc: 'a preUpdate http hook of another scheme', mutate: (s) => (s.spec.lifecycle = { preUpdate: { http: { url: 'ftp://a.example/x' } } }), path: 'spec.lifecycle.preUpdate.http.url' },
  { desc: 'a preUpdate expectedStatus of 99', mutate: (s) => (s.spec.lifecycle = { preUpdate: { http: { url: 'http://a.example', expectedStatus: 99 } } }), path: 'spec.lifecycle.preUpdate.http.expectedStatus' },
  { desc: 'a preUpdate request timeout of 0', mutate: (s) => (s.spec.lifecycle = { preUpdate: { http: { url: 'http://a.example', timeoutSeconds: 0 } } }), path: 'spec.lifecycle.preUpdate.http.timeoutSeconds' },
  { desc: 'a preUpdate timeoutSeconds of 0', mutate: (s) => (s.spec.lifecycle = { preUpdate: { http: { url: 'http://a.example' }, timeoutSeconds: 0 } }), path: 'spec.lifecycle.preUpdate.timeoutSeconds' },
  { desc: 'an unknown preUpdate failurePolicy', mutate: (s) => (s.spec.lifecycle = { preUpdate: { http: { url: 'http://a.example' }, failurePolicy: 'Retry' } }), path: 'spec.lifecycle.preUpdate.failurePolicy' },
  { desc: 'a labels handler waiting for the lifecycle-state label', mutate: (s) => (s.spec.lifecycle = { preUpdate: { labelsHandler: { 'apps.ordinal.dev/lifecycle-state': 'Ready' } } }), path: 'spec.lifecycle.preUpdate.labelsHandler' },
  { desc: 'an empty labels handler', mutate: (s) => (s.spec.lifecycle = { preUpdate: { labelsHandler: {} } }), path: 'spec.lifecycle.preUpdate.labelsHandler' },
  {
    desc: 'a labels handler key that is not a label key',
    mutate: (s) => (s.spec.lifecycle = { preUpdate: { labelsHandler: { 'a/b/c': 'x' } } }),
    path: 'spec.lifecycle.preUpdate.labelsHandler[a/b/c]',
    controllerOnly: 'a label key check over a map of keys costs more CEL than the rule is worth; the controller refuses it with its path',
  },
  { desc: 'an unknown enforced onFailure', mutate: (s) => strategy(s, { type: 'EnforcedRollingUpdate', enforcedRollingUpdate: { onFailure: 'Undo' } }), path: 'spec.updateStrategy.enforcedRollingUpdate.onFailure' },
  { desc: 'a step with neither partition nor replicas', mutate: (s) => ru(s, { steps: [{ pause: {} }] }), path: 'spec.updateStrategy.rollingUpdate.steps[0]' },
  { desc: 'a step with partition and replicas', mutate: (s) => ru(s, { steps: [{ partition: 1, replicas: 1 }] }), path: 'spec.updateStrategy.rollingUpdate.steps[0]' },
  { desc: 'a negative step partition', mutate: (s) => ru(s, { steps: [{ partition: -1 }] }), path: 'spec.updateStrategy.rollingUpdate.steps[0].partition' },
  { desc: 'negative step replicas', mutate: (s) => ru(s, { steps: [{ replicas: -1 }] }), path: 'spec.updateStrategy.rollingUpdate.steps[0].replicas' },
  { desc: 'step replicas "5" without %', mutate: (s) => ru(s, { steps: [{ replicas: '5' }] }), path: 'spec.updateStrategy.rollingUpdate.steps[0].replicas' },
  { desc: 'step replicas 101%', mutate: (s) => ru(s, { steps: [{ replicas: '101%' }] }), path: 'spec.updateStrategy.rollingUpdate.steps[0].replicas' },
  { desc: 'a step with a pause and an analysis', mutate: (s) => ru(s, { steps: [{ replicas: 1, pause: {}, analysis: { readiness: { duration: '1m' } } }] }), path: 'spec.updateStrategy.rollingUpdate.steps[0]' },
  { desc: 'a pause duration without a unit', mutate: (s) => ru(s, { steps: [{ replicas: 1, pause: { duration: '10' } }] }), path: 'spec.updateStrategy.rollingUpdate.steps[0].pause.duration' },
  { desc: 'a pause duration of 0s', mutate: (s) => ru(s, { steps: [{ replicas: 1, pause: { duration: '0s' } }] }), path: 'spec.updateStrategy.rollingUpdate.steps[0].pause.duration' },
  { desc: 'a pause duration in microseconds', mutate: (s) => ru(s, { steps: [{ replicas: 1, pause: { duration: '500us' } }] }), path: 'spec.updateStrategy.rollingUpdate.steps[0].pause.duration' },
  { desc: 'an analysis with neither check', mutate: (s) => ru(s, { steps: [{ replicas: 1, analysis: {} }] }), path: 'spec.updateStrategy.rollingUpdate.steps[0].analysis' },
  { desc: 'an http analysis without url', mutate: (s) => ru(s, { steps: [{ replicas: 1, analysis: { http: { count: 1 } } }] }), path: 'spec.updateStrategy.rollingUpdate.steps[0].analysis.http.url' },
  { desc: 'an http analysis of another scheme', mutate: (s) => ru(s, { steps: [{ replicas: 1, analysis: { http: { url: 'ftp://a.example/x' } } }] }), path: 'spec.updateStrategy.rollingUpdate.steps[0].analysis.http.url' },
  { desc: 'an http analysis URL without a host', mutate: (s) => ru(s, { steps: [{ replicas: 1, analysis: { http: { url: 'http://' } } }] }), path: 'spec.updateStrategy.rollingUpdate.steps[0].analysis.http.url' },
  { desc: 'an http expectedStatus of 600', mutate: (s) => ru(s, { steps: [{ replicas: 1, analysis: { http: { url: 'http://a.example', expectedStatus: 600 } } }] }), path: 'spec.updateStrategy.rollingUpdate.steps[0].analysis.http.expectedStatus' },
  { desc: 'an http count of 0', mutate: (s) => ru(s, { steps: [{ replicas: 1, analysis: { http: { url: 'http://a.example', count: 0 } } }] }), path: 'spec.updateStrategy.rollingUpdate.steps[0].analysis.http.count' },
  { desc: 'an http timeout of 0s', mutate: (s) => ru(s, { steps: [{ replicas: 1, analysis: { http: { url: 'http://a.example', timeout: '0s' } } }] }), path: 'spec.updateStrategy.rollingUpdate.steps[0].analysis.http.timeout' },
  { desc: 'a readiness analysis without duration', mutate: (s) => ru(s, { steps: [{ replicas: 1, analysis: { readiness: { failureLimit: 1 } } }] }), path: 'spec.updateStrategy.rollingUpdate.steps[0].analysis.readiness.duration' },
  { desc: 'a negative readiness failureLimit', mutate: (s) => ru(s, { steps: [{ replicas: 1, analysis: { readiness: { duration: '1m', failureLimit: -1 } } }] }), path: 'spec.updateStrategy.rollingUpdate.steps[0].analysis.readiness.failureLimit' },
  { desc: '33 steps', mutate: (s) => ru(s, { steps: Array.from({ length: 33 }, () => ({ replicas: 1 })) }), path: 'spec.updateStrategy.rollingUpdate.steps' },
  { desc: 'paused not a boolean', mutate: (s) => ru(s, { paused: 'yes' }), path: 'spec.updateStrategy.rollingUpdate.paused' },
  { desc: 'an unknown retention policy', mutate: (s) => (s.spec.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Archive' }), path: 'spec.persistentVolumeClaimRetentionPolicy.whenDeleted' },
  { desc: 'an empty selector', mutate: (s) => (s.spec.selector = {}), path: 'spec.selector' },
  { desc: 'In without values', mutate: (s) => (s.spec.selector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In' }] }), path: 'spec.selector.matchExpressions[0].values' },
  { desc: 'restartPolicy Never', mutate: (s) => (s.spec.template.spec.restartPolicy = 'Never'), path: 'spec.template.spec.restartPolicy' },
  { desc: 'activeDeadlineSeconds', mutate: (s) => (s.spec.template.spec.activeDeadlineSeconds = 30), path: 'spec.template.spec.activeDeadlineSeconds' },
  { desc: 'a serviceName that is not a DNS label', mutate: (s) => (s.spec.serviceName = 'Web_Svc'), path: 'spec.serviceName' },
  { desc: 'a name that is a DNS subdomain but not a label', mutate: (s) => (s.metadata.name = 'web.v1'), path: 'metadata.name' },
  { desc: 'progressDeadlineSeconds not above minReadySeconds', mutate: (s) => Object.assign(s.spec, { minReadySeconds: 10, progressDeadlineSeconds: 5 }), path: 'spec.progressDeadlineSeconds' },
  { desc: 'progressDeadlineSeconds a string other than auto', mutate: (s) => Object.assign(s.spec, { progressDeadlineSeconds: '10m' }), path: 'spec.progressDeadlineSeconds' },
  { desc: '17 claim templates', mutate: (s) => (s.spec.volumeClaimTemplates = claimTemplates(17)), path: 'spec.volumeClaimTemplates' },
  { desc: 'a selector that does not match the template labels', mutate: (s) => (s.spec.template.metadata.labels = { app: 'other' }), path: 'spec.template.metadata.labels' },
  { desc: 'a template without containers', mutate: (s) => (s.spec.template.spec.containers = []), path: 'spec.template.spec.containers' },
  {
    desc: 'two containers of one name',
    mutate: (s) => s.spec.template.spec.containers.push({ name: 'app', image: 'busybox:1.36' }),
    path: 'spec.template.spec.containers[1].name',
    controllerOnly: 'a CEL rule on the list cannot name the item, and one on the item cannot see the others',
  },
  { desc: '65 matchLabels', mutate: (s) => (s.spec.selector.matchLabels = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, 'v']))), path: 'spec.selector.matchLabels' },
  { desc: '65 containers', mutate: (s) => (s.spec.template.spec.containers = Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, image: 'busybox:1.36' }))), path: 'spec.template.spec.containers' },
];

export const UPDATE_CASES: UpdateCase[] = [
  { desc: 'scaling', mutate: (s) => (s.spec.replicas = 5) },
  { desc: 'a new template', mutate: (s) => (s.spec.template.spec.containers[0].image = 'nginx:1.28') },
  { desc: 'a new update strategy', mutate: (s) => strategy(s, { type: 'OnDelete' }) },
  { desc: 'a changed selector', mutate: (s) => (s.spec.selector.matchLabels.tier = 'a'), path: 'spec.selector' },
  { desc: 'a changed serviceName', mutate: (s) => (s.spec.serviceName = 'other'), path: 'spec.serviceName' },
  { desc: 'a removed serviceName', mutate: (s) => delete s.spec.serviceName, path: 'spec.serviceName' },
  { desc: 'a changed podManagementPolicy', mutate: (s) => (s.spec.podManagementPolicy = 'Parallel'), path: 'spec.podManagementPolicy' },
  {
    desc: 'added volumeClaimTemplates',
    mutate: (s) => (s.spec.volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }]),
    path: 'spec.volumeClaimTemplates',
  },
  // apps.ordinal.dev/v1: claim templates may grow and relabel (KEP-4650)
  { desc: 'a larger claim template', base: withClaims, mutate: (s) => (claim(s).spec.resources.requests.storage = '2Gi') },
  { desc: 'the same claim size written otherwise (1024Mi)', base: withClaims, mutate: (s) => (claim(s).spec.resources.requests.storage = '1024Mi') },
  { desc: 'new claim template labels and annotations', base: withClaims, mutate: (s) => (claim(s).metadata = { name: 'data', labels: { tier: 'x' }, annotations: { a: 'b' } }) },
  { desc: 'a claim template volumeAttributesClassName', base: withClaims, mutate: (s) => (claim(s).spec.volumeAttributesClassName = 'gold') },
  {
    desc: 'a smaller claim template',
    base: withClaims,
    mutate: (s) => (claim(s).spec.resources.requests.storage = '512Mi'),
    path: STORAGE,
    // on the API server by the admission policy shipped with the CRD (its CEL cannot compare quantities)
    crdPath: 'spec.volumeClaimTemplates',
    says: 'delete the claim and its pod',
  },
  {
    desc: 'a claim template storageClassName',
    base: withClaims,
    mutate: (s) => (claim(s).spec.storageClassName = 'fast'),
    path: 'spec.volumeClaimTemplates[0].spec.storageClassName',
    crdPath: 'spec.volumeClaimTemplates',
    says: 'field is immutable',
  },
  { desc: 'a claim template access mode', base: withClaims, mutate: (s) => (claim(s).spec.accessModes = ['ReadWriteMany']), path: 'spec.volumeClaimTemplates[0].spec.accessModes', crdPath: 'spec.volumeClaimTemplates' },
  { desc: 'a removed claim storage request', base: withClaims, mutate: (s) => (claim(s).spec.resources = {}), path: STORAGE, crdPath: 'spec.volumeClaimTemplates' },
  { desc: 'a renamed claim template', base: withClaims, mutate: (s) => (claim(s).metadata.name = 'logs'), path: 'spec.volumeClaimTemplates', says: 'only with spec.volumeClaimUpdatePolicy: InPlace' },
  {
    desc: 'a second claim template',
    base: withClaims,
    mutate: (s) => s.spec.volumeClaimTemplates.push(LOGS),
    path: 'spec.volumeClaimTemplates',
    says: 'only with spec.volumeClaimUpdatePolicy: InPlace',
  },
  { desc: 'a removed claim template', base: withClaims, mutate: (s) => (s.spec.volumeClaimTemplates = []), path: 'spec.volumeClaimTemplates', says: 'only with spec.volumeClaimUpdatePolicy: InPlace' },
  { desc: 'reordered claim templates', base: withTwoClaims, mutate: (s) => s.spec.volumeClaimTemplates.reverse(), path: 'spec.volumeClaimTemplates', says: 'only with spec.volumeClaimUpdatePolicy: InPlace' },
  { desc: 'a claim template added while switching to InPlace', base: withClaims, mutate: (s) => ((s.spec.volumeClaimUpdatePolicy = 'InPlace'), s.spec.volumeClaimTemplates.push(LOGS)) },
  // volumeClaimUpdatePolicy: InPlace: the templates are part of the revision, so they may come and go
  { desc: 'a second claim template (InPlace)', base: inPlace(withClaims), mutate: (s) => s.spec.volumeClaimTemplates.push(LOGS) },
  { desc: 'a first claim template (InPlace)', base: inPlace(() => {}), mutate: (s) => (s.spec.volumeClaimTemplates = [LOGS]) },
  { desc: 'a removed claim template (InPlace)', base: inPlace(withTwoClaims), mutate: (s) => s.spec.volumeClaimTemplates.pop() },
  { desc: 'every claim template removed (InPlace)', base: inPlace(withClaims), mutate: (s) => delete s.spec.volumeClaimTemplates },
  { desc: 'a renamed claim template (InPlace)', base: inPlace(withClaims), mutate: (s) => (claim(s).metadata.name = 'logs') },
  { desc: 'reordered claim templates (InPlace)', base: inPlace(withTwoClaims), mutate: (s) => s.spec.volumeClaimTemplates.reverse() },
  { desc: 'a claim template added while switching to OnDelete', base: inPlace(withClaims), mutate: (s) => ((s.spec.volumeClaimUpdatePolicy = 'OnDelete'), s.spec.volumeClaimTemplates.push(LOGS)), path: 'spec.volumeClaimTemplates', says: 'only with spec.volumeClaimUpdatePolicy: InPlace' },
  {
    desc: 'a kept template with another storageClassName, moved to the second place (InPlace)',
    base: inPlace(withTwoClaims),
    mutate: (s) => ((s.spec.volumeClaimTemplates = [s.spec.volumeClaimTemplates[1], s.spec.volumeClaimTemplates[0]]), (s.spec.volumeClaimTemplates[1].spec.storageClassName = 'fast')),
    path: 'spec.volumeClaimTemplates[1].spec.storageClassName',
    crdPath: 'spec.volumeClaimTemplates',
    says: 'field is immutable',
  },
  {
    desc: 'a smaller kept template beside a new one (InPlace)',
    base: inPlace(withClaims),
    mutate: (s) => (s.spec.volumeClaimTemplates = [LOGS, { ...claim(s), spec: { ...claim(s).spec, resources: { requests: { storage: '512Mi' } } } }]),
    path: 'spec.volumeClaimTemplates[1].spec.resources.requests[storage]',
    crdPath: 'spec.volumeClaimTemplates',
    says: 'delete the claim and its pod',
  },
  {
    desc: 'an added claim template without accessModes (InPlace)',
    base: inPlace(withClaims),
    mutate: (s) => s.spec.volumeClaimTemplates.push({ metadata: { name: 'logs' }, spec: { resources: { requests: { storage: '1Gi' } } } }),
    path: 'spec.volumeClaimTemplates[1].spec.accessModes',
    controllerOnly: 'an added template is checked as on create; the CRD has no create-time rules for a template (apps/v1 checks them in code)',
  },
  {
    desc: 'two claim templates of one name (InPlace)',
    base: inPlace(withClaims),
    mutate: (s) => s.spec.volumeClaimTemplates.push(structuredClone(claim(s))),
    path: 'spec.volumeClaimTemplates[1].metadata.name',
    controllerOnly: 'a CEL rule on the list cannot name the item, and one on the item cannot see the others',
  },
  {
    desc: 'a volumeMount of a removed claim template (InPlace)',
    base: inPlace((s) => (withTwoClaims(s), (s.spec.template.spec.containers[0].volumeMounts = [{ name: 'logs', mountPath: '/logs' }]))),
    mutate: (s) => s.spec.volumeClaimTemplates.pop(),
    path: 'spec.template.spec.containers[0].volumeMounts[0].name',
    says: 'Not found: "logs"',
    controllerOnly: 'the CRD leaves volumeMount references to the pod\'s own validation, as on create',
  },
  {
    desc: 'a volumeMount of a removed claim template that a pod volume now serves (InPlace)',
    base: inPlace((s) => (withTwoClaims(s), (s.spec.template.spec.containers[0].volumeMounts = [{ name: 'logs', mountPath: '/logs' }]))),
    mutate: (s) => (s.spec.volumeClaimTemplates.pop(), (s.spec.template.spec.volumes = [{ name: 'logs', emptyDir: {} }])),
  },
];
