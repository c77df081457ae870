import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createMessages } from './fixtures.js';

const LABEL_RULE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const C = 'spec.template.spec.containers';
const container = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name,
  image: 'registry.example.com/app:1',
  imagePullPolicy: 'IfNotPresent',
  ...extra,
});

type Row = [name: string, fields: Record<string, unknown>, want: string[]];
const run = (rows: Row[]): void => {
  for (const [name, fields, want] of rows) it(name, () => assert.deepEqual(createMessages(fields), want));
};

describe('validateStatefulSet: pod template subset (containers)', () => {
  run([
    ['no containers', { [C]: undefined }, [`${C}: Required value`]],
    ['an empty container list', { [C]: [] }, [`${C}: Required value`]],
    ['containers not a list', { [C]: { name: 'x' } }, [`${C}: Invalid value: {"name":"x"}: must be of type array`]],
    ['a container without a name', { [C]: [container('')] }, [`${C}[0].name: Required value`]],
    ['an uppercase container name', { [C]: [container('Nginx')] }, [`${C}[0].name: Invalid value: "Nginx": ${LABEL_RULE}`]],
    ['duplicate container names', { [C]: [container('app'), container('app')] }, [`${C}[1].name: Duplicate value: "app"`]],
    ['an init container named like a container', { 'spec.template.spec.initContainers': [container('nginx')] }, ['spec.template.spec.initContainers[0].name: Duplicate value: "nginx"']],
    ['no image', { [C]: [container('app', { image: undefined })] }, [`${C}[0].image: Required value`]],
    // a pod rule (validateContainersOnlyForPod): apps/v1 accepts it in a template (test/deploy/template-cases.ts)
    ['an image with surrounding whitespace', { [C]: [container('app', { image: ' nginx ' })] }, []],
    ['no imagePullPolicy (undefaulted)', { [C]: [container('app', { imagePullPolicy: undefined })] }, [`${C}[0].imagePullPolicy: Required value`]],
    ['an unknown imagePullPolicy', { [C]: [container('app', { imagePullPolicy: 'Sometimes' })] }, [`${C}[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"`]],
    ['containerPort 0', { [C]: [container('app', { ports: [{ containerPort: 0, protocol: 'TCP' }] })] }, [`${C}[0].ports[0].containerPort: Required value`]],
    ['containerPort above 65535', { [C]: [container('app', { ports: [{ containerPort: 70000, protocol: 'TCP' }] })] }, [`${C}[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive`]],
    ['an unknown port protocol', { [C]: [container('app', { ports: [{ containerPort: 80, protocol: 'HTTP' }] })] }, [`${C}[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"`]],
    ['no port protocol (undefaulted)', { [C]: [container('app', { ports: [{ containerPort: 80 }] })] }, [`${C}[0].ports[0].protocol: Required value`]],
    ['a container that is not an object', { [C]: ['nginx'] }, [`${C}[0]: Invalid value: "nginx": must be of type object`]],
  ]);
});

describe('validateStatefulSet: pod template subset (volumes)', () => {
  const V = 'spec.template.spec.volumes';
  run([
    ['a volume without a name', { [V]: [{ emptyDir: {} }] }, [`${V}[0].name: Required value`]],
    ['an uppercase volume name', { [V]: [{ name: 'Cache', emptyDir: {} }] }, [`${V}[0].name: Invalid value: "Cache": ${LABEL_RULE}`]],
    ['duplicate volume names', { [V]: [{ name: 'cache', emptyDir: {} }, { name: 'cache', emptyDir: {} }] }, [`${V}[1].name: Duplicate value: "cache"`]],
    ['a volume named like a claim template is replaced, not duplicated', { [V]: [{ name: 'data', emptyDir: {} }] }, []],
  ]);
});

describe('validateStatefulSet: volumeClaimTemplates (create)', () => {
  const T = 'spec.volumeClaimTemplates[0]';
  run([
    ['no accessModes', { 'spec.volumeClaimTemplates.0.spec.accessModes': undefined }, [`${T}.spec.accessModes: Required value: at least 1 access mode is required`]],
    [
      'an unknown access mode',
      { 'spec.volumeClaimTemplates.0.spec.accessModes': ['ReadWriteSometimes'] },
      [`${T}.spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"`],
    ],
    ['no storage request', { 'spec.volumeClaimTemplates.0.spec.resources': {} }, [`${T}.spec.resources[storage]: Required value`]],
    ['no claim name', { 'spec.volumeClaimTemplates.0.metadata': {} }, [`${T}.metadata.name: Required value`]],
    ['an uppercase claim name', { 'spec.volumeClaimTemplates.0.metadata.name': 'Data' }, [`${T}.metadata.name: Invalid value: "Data": ${LABEL_RULE}`]],
    ['claim templates not a list', { 'spec.volumeClaimTemplates': 'data' }, ['spec.volumeClaimTemplates: Invalid value: "data": must be of type array']],
    ['no claim templates at all', { 'spec.volumeClaimTemplates': undefined }, []],
  ]);
});
