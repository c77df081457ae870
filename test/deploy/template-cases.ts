// The contract table of pod templates: each invalid one is refused by kube-apiserver as an apps/v1 StatefulSet,
// by the CRD (apps.ordinal.dev/v1) and by `ordinal validate`, at the same field path; each valid one is accepted
// by all three. test/deploy/template-contract.test.ts holds `ordinal validate` to it (and checks that every
// rule of validation/template-rules.ts has a case); test/e2e/template-contract.test.ts holds kube-apiserver's
// two APIs to it, in one dry-run pass.

import { baseSet, type Mutable } from './crd-cases.js';

export interface TemplateCase {
  desc: string;
  mutate(set: Mutable): void;
  /** The path all three name; undefined: all three accept. */
  path?: string;
  /**
   * apps/v1 refuses it while decoding, with a 400 and no field error: the words its message must carry (a
   * quantity that does not parse names no field; an int32 out of range names it without list indices).
   */
  decodedBy?: string;
  /** Where the CRD names it when its OpenAPI validation spells a map key as `.key`, not `[key]`. */
  crdPath?: string;
}

const C = 'spec.template.spec.containers';
const I = 'spec.template.spec.initContainers';
const V = 'spec.template.spec.volumes';
const LABELS = 'spec.template.metadata.labels';
const INT32_OVERFLOW = 2 ** 31;

const pod = (s: Mutable): Mutable => s.spec.template.spec;
const app = (s: Mutable): Mutable => pod(s).containers[0];
const init = (s: Mutable, extra: object = {}): void => void (pod(s).initContainers = [{ name: 'init', image: 'busybox:1.36', ...extra }]);
const port = (s: Mutable, p: object): void => void (app(s).ports = [p]);
const withVolume = (s: Mutable, mount: object): void => {
  pod(s).volumes = [{ name: 'cache', emptyDir: {} }];
  app(s).volumeMounts = [mount];
};
const expressions = (s: Mutable, ...matchExpressions: object[]): void => void (s.spec.selector = { matchLabels: { app: 'web' }, matchExpressions });

export const VALID_TEMPLATES: TemplateCase[] = [
  { desc: 'the base set', mutate: () => {} },
  {
    desc: 'named ports of every protocol, a host port, an init container with its own ports',
    mutate: (s) => {
      app(s).ports = [{ name: 'http', containerPort: 8080, hostPort: 8080 }, { name: 'dns', containerPort: 53, protocol: 'UDP' }, { containerPort: 9000, protocol: 'SCTP' }];
      init(s, { ports: [{ name: 'probe-1', containerPort: 81 }] });
    },
  },
  { desc: 'resources as strings and JSON numbers', mutate: (s) => void (app(s).resources = { requests: { cpu: 0.5, memory: '1Gi' }, limits: { cpu: '1500m', memory: 2147483648, 'example.com/gpu': '1' } }) },
  { desc: 'quantities in exponent and decimal forms', mutate: (s) => void (app(s).resources = { requests: { cpu: '1e3', memory: '1.5G', 'ephemeral-storage': '0' } }) },
  { desc: 'empty imagePullPolicy, protocol, terminationMessagePolicy and dnsPolicy (defaulted)', mutate: (s) => {
    Object.assign(app(s), { imagePullPolicy: '', terminationMessagePolicy: '', ports: [{ containerPort: 80, protocol: '' }] });
    pod(s).dnsPolicy = '';
  } },
  { desc: 'every pull policy, termination message policy and DNS policy spelled out', mutate: (s) => {
    Object.assign(app(s), { imagePullPolicy: 'Never', terminationMessagePolicy: 'FallbackToLogsOnError' });
    init(s, { imagePullPolicy: 'Always' });
    pod(s).dnsPolicy = 'ClusterFirstWithHostNet';
  } },
  { desc: 'env, volume mounts and a volume', mutate: (s) => {
    app(s).env = [{ name: 'MODE', value: 'primary' }, { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }];
    withVolume(s, { name: 'cache', mountPath: '/cache' });
  } },
  { desc: 'a serviceAccountName that is a DNS subdomain', mutate: (s) => void (pod(s).serviceAccountName = 'web.reader') },
  { desc: 'a 63-character container name', mutate: (s) => void (app(s).name = 'a'.repeat(63)) },
  { desc: 'a selector of every operator, matching', mutate: (s) => {
    s.spec.template.metadata.labels = { app: 'web', tier: 'db', role: 'primary' };
    expressions(s, { key: 'tier', operator: 'In', values: ['db', 'cache'] }, { key: 'role', operator: 'NotIn', values: ['replica'] }, { key: 'app', operator: 'Exists' }, { key: 'canary', operator: 'DoesNotExist' });
  } },
  { desc: 'template labels beyond the selector', mutate: (s) => void (s.spec.template.metadata.labels = { app: 'web', version: 'v2' }) },
  { desc: 'an image with surrounding whitespace (a pod rule, not a template rule)', mutate: (s) => void (app(s).image = ' nginx:1.27 ') },
];

export const INVALID_TEMPLATES: TemplateCase[] = [
  // the six of the issue, and replicas 2^31
  { desc: 'imagePullPolicy Sometimes', mutate: (s) => void (app(s).imagePullPolicy = 'Sometimes'), path: `${C}[0].imagePullPolicy` },
  { desc: 'a container named Web_1', mutate: (s) => void (app(s).name = 'Web_1'), path: `${C}[0].name` },
  { desc: 'containerPort 70000', mutate: (s) => port(s, { containerPort: 70000 }), path: `${C}[0].ports[0].containerPort` },
  { desc: 'cpu 1x', mutate: (s) => void (app(s).resources = { requests: { cpu: '1x' } }), path: `${C}[0].resources.requests[cpu]`, crdPath: `${C}[0].resources.requests.cpu`, decodedBy: 'quantities must match the regular expression' },
  { desc: 'a selector that does not match the template labels', mutate: (s) => void (s.spec.template.metadata.labels = { app: 'other' }), path: LABELS },
  { desc: 'containers: []', mutate: (s) => void (pod(s).containers = []), path: C },
  { desc: 'replicas 2^31', mutate: (s) => void (s.spec.replicas = INT32_OVERFLOW), path: 'spec.replicas', decodedBy: 'spec.replicas of type int32' },
  // containers and init containers
  { desc: 'no containers', mutate: (s) => void delete pod(s).containers, path: C },
  { desc: 'a template without a spec', mutate: (s) => void delete s.spec.template.spec, path: C },
  { desc: 'an init container named Init_1', mutate: (s) => init(s, { name: 'Init_1' }), path: `${I}[0].name` },
  { desc: 'a 64-character container name', mutate: (s) => void (app(s).name = 'a'.repeat(64)), path: `${C}[0].name` },
  { desc: 'a container name with a dot', mutate: (s) => void (app(s).name = 'web.v1'), path: `${C}[0].name` },
  { desc: 'an empty container name', mutate: (s) => void (app(s).name = ''), path: `${C}[0].name` },
  { desc: 'a container without a name', mutate: (s) => void delete app(s).name, path: `${C}[0].name` },
  { desc: 'a container without an image', mutate: (s) => void delete app(s).image, path: `${C}[0].image` },
  { desc: 'an empty image', mutate: (s) => void (app(s).image = ''), path: `${C}[0].image` },
  { desc: 'an init container without an image', mutate: (s) => init(s, { image: undefined }), path: `${I}[0].image` },
  { desc: 'an init container imagePullPolicy Sometimes', mutate: (s) => init(s, { imagePullPolicy: 'Sometimes' }), path: `${I}[0].imagePullPolicy` },
  { desc: 'terminationMessagePolicy Sometimes', mutate: (s) => void (app(s).terminationMessagePolicy = 'Sometimes'), path: `${C}[0].terminationMessagePolicy` },
  // ports
  { desc: 'containerPort -1', mutate: (s) => port(s, { containerPort: -1 }), path: `${C}[0].ports[0].containerPort` },
  { desc: 'containerPort 0', mutate: (s) => port(s, { containerPort: 0 }), path: `${C}[0].ports[0].containerPort` },
  { desc: 'a port without containerPort', mutate: (s) => port(s, { name: 'http' }), path: `${C}[0].ports[0].containerPort` },
  { desc: 'containerPort 2^31', mutate: (s) => port(s, { containerPort: INT32_OVERFLOW }), path: `${C}[0].ports[0].containerPort`, decodedBy: 'spec.template.spec.containers.ports.containerPort of type int32' },
  { desc: 'an init container containerPort 70000', mutate: (s) => init(s, { ports: [{ containerPort: 70000 }] }), path: `${I}[0].ports[0].containerPort` },
  { desc: 'hostPort 70000', mutate: (s) => port(s, { containerPort: 80, hostPort: 70000 }), path: `${C}[0].ports[0].hostPort` },
  { desc: 'hostPort -1', mutate: (s) => port(s, { containerPort: 80, hostPort: -1 }), path: `${C}[0].ports[0].hostPort` },
  { desc: 'protocol HTTP', mutate: (s) => port(s, { containerPort: 80, protocol: 'HTTP' }), path: `${C}[0].ports[0].protocol` },
  { desc: 'a port named HTTP_PORT', mutate: (s) => port(s, { containerPort: 80, name: 'HTTP_PORT' }), path: `${C}[0].ports[0].name` },
  { desc: 'a 16-character port name', mutate: (s) => port(s, { containerPort: 80, name: 'metrics-port-abc' }), path: `${C}[0].ports[0].name` },
  { desc: 'a port name without a letter', mutate: (s) => port(s, { containerPort: 80, name: '8080' }), path: `${C}[0].ports[0].name` },
  { desc: 'a port name with consecutive hyphens', mutate: (s) => port(s, { containerPort: 80, name: 'web--1' }), path: `${C}[0].ports[0].name` },
  { desc: 'a port name that begins with a hyphen', mutate: (s) => port(s, { containerPort: 80, name: '-web' }), path: `${C}[0].ports[0].name` },
  // resources
  { desc: 'a negative memory limit', mutate: (s) => void (app(s).resources = { limits: { memory: '-1Gi' } }), path: `${C}[0].resources.limits[memory]`, crdPath: `${C}[0].resources.limits.memory` },
  { desc: 'a negative cpu request as a JSON number', mutate: (s) => void (app(s).resources = { requests: { cpu: -0.5 } }), path: `${C}[0].resources.requests[cpu]`, crdPath: `${C}[0].resources.requests.cpu` },
  { desc: 'a memory request with two suffixes', mutate: (s) => void (app(s).resources = { requests: { memory: '1GiB' } }), path: `${C}[0].resources.requests[memory]`, crdPath: `${C}[0].resources.requests.memory`, decodedBy: 'quantities must match the regular expression' },
  { desc: 'a memory request with an unknown suffix', mutate: (s) => void (app(s).resources = { requests: { memory: '1ki' } }), path: `${C}[0].resources.requests[memory]`, crdPath: `${C}[0].resources.requests.memory`, decodedBy: "unable to parse quantity's suffix" },
  // env and volume mounts
  { desc: 'an env var without a name', mutate: (s) => void (app(s).env = [{ value: 'x' }]), path: `${C}[0].env[0].name` },
  { desc: 'an env var with an empty name', mutate: (s) => void (app(s).env = [{ name: '', value: 'x' }]), path: `${C}[0].env[0].name` },
  { desc: 'a volume mount without mountPath', mutate: (s) => withVolume(s, { name: 'cache' }), path: `${C}[0].volumeMounts[0].mountPath` },
  { desc: 'a volume mount with an empty name', mutate: (s) => withVolume(s, { name: '', mountPath: '/cache' }), path: `${C}[0].volumeMounts[0].name` },
  { desc: 'a volume mount with an empty mountPath', mutate: (s) => withVolume(s, { name: 'cache', mountPath: '' }), path: `${C}[0].volumeMounts[0].mountPath` },
  // the pod spec
  { desc: 'restartPolicy Never', mutate: (s) => void (pod(s).restartPolicy = 'Never'), path: 'spec.template.spec.restartPolicy' },
  { desc: 'activeDeadlineSeconds', mutate: (s) => void (pod(s).activeDeadlineSeconds = 30), path: 'spec.template.spec.activeDeadlineSeconds' },
  { desc: 'dnsPolicy Sometimes', mutate: (s) => void (pod(s).dnsPolicy = 'Sometimes'), path: 'spec.template.spec.dnsPolicy' },
  { desc: 'a serviceAccountName Bad_SA', mutate: (s) => void (pod(s).serviceAccountName = 'Bad_SA'), path: 'spec.template.spec.serviceAccountName' },
  { desc: 'a volume named Data_1', mutate: (s) => void (pod(s).volumes = [{ name: 'Data_1', emptyDir: {} }]), path: `${V}[0].name` },
  { desc: 'a volume without a name', mutate: (s) => void (pod(s).volumes = [{ emptyDir: {} }]), path: `${V}[0].name` },
  { desc: 'a volume with an empty name', mutate: (s) => void (pod(s).volumes = [{ name: '', emptyDir: {} }]), path: `${V}[0].name` },
  // the selector against the labels
  { desc: 'a template without labels', mutate: (s) => void delete s.spec.template.metadata.labels, path: LABELS },
  { desc: 'matchLabels naming a label the template lacks', mutate: (s) => void (s.spec.selector.matchLabels.tier = 'db'), path: LABELS },
  { desc: 'an In expression the labels do not meet', mutate: (s) => expressions(s, { key: 'app', operator: 'In', values: ['db'] }), path: LABELS },
  { desc: 'a NotIn expression the labels meet', mutate: (s) => expressions(s, { key: 'app', operator: 'NotIn', values: ['web'] }), path: LABELS },
  { desc: 'an Exists expression for a missing label', mutate: (s) => expressions(s, { key: 'tier', operator: 'Exists' }), path: LABELS },
  { desc: 'a DoesNotExist expression for a present label', mutate: (s) => expressions(s, { key: 'app', operator: 'DoesNotExist' }), path: LABELS },
  // other integers out of range
  { desc: 'minReadySeconds 2^31', mutate: (s) => void (s.spec.minReadySeconds = INT32_OVERFLOW), path: 'spec.minReadySeconds', decodedBy: 'spec.minReadySeconds of type int32' },
  { desc: 'revisionHistoryLimit -2^31-1', mutate: (s) => void (s.spec.revisionHistoryLimit = -INT32_OVERFLOW - 1), path: 'spec.revisionHistoryLimit', decodedBy: 'spec.revisionHistoryLimit of type int32' },
];

/** The case's set: the base set (apps.ordinal.dev/v1) with the case applied. */
export function templateCaseSet(c: TemplateCase, namespace: string, name: string): Mutable {
  const s: Mutable = structuredClone(baseSet(namespace, name));
  c.mutate(s);
  return s;
}
