import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateStatefulSet } from '../../src/api/validation/index.js';
import { createMessages, features, validOrdinalSet, validSet } from './fixtures.js';

const LABEL_RULE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const KEY_RULE =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_RULE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const NEG = 'must be greater than or equal to 0';
const MISMATCH = 'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`';

type Row = [name: string, fields: Record<string, unknown>, want: string[]];

function table(title: string, rows: Row[]): void {
  describe(title, () => {
    for (const [name, fields, want] of rows) it(name, () => assert.deepEqual(createMessages(fields), want));
  });
}

describe('validateStatefulSet: valid objects', () => {
  it('accepts the defaulted fixture (apps/v1 and apps.ordinal.dev/v1)', () => {
    assert.deepEqual(validateStatefulSet(validSet(), features), []);
    assert.deepEqual(validateStatefulSet(validOrdinalSet(), features), []);
  });
  it('accepts values at the edges', () => {
    assert.deepEqual(createMessages({ 'spec.replicas': 0, 'spec.minReadySeconds': 0, 'spec.ordinals': { start: 0 } }), []);
    assert.deepEqual(createMessages({ 'spec.replicas': 2147483647, 'spec.revisionHistoryLimit': -2 }), []);
    assert.deepEqual(createMessages({ 'metadata.name': undefined, 'metadata.generateName': 'web-' }), []);
    assert.deepEqual(createMessages({ 'spec.serviceName': '' }), []);
    assert.deepEqual(createMessages({ 'metadata.name': 'a'.repeat(63) }), []);
  });
});

table('validateStatefulSet: metadata (ValidateObjectMeta, name is a DNS-1123 label)', [
  ['an uppercase name', { 'metadata.name': 'Web' }, [`metadata.name: Invalid value: "Web": ${LABEL_RULE}`]],
  ['a dotted (subdomain) name', { 'metadata.name': 'web.example' }, ['metadata.name: Invalid value: "web.example": must not contain dots']],
  ['a 64-character name', { 'metadata.name': 'a'.repeat(64) }, [`metadata.name: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters`]],
  ['no name', { 'metadata.name': undefined }, ['metadata.name: Required value: name or generateName is required']],
  ['an invalid generateName', { 'metadata.name': undefined, 'metadata.generateName': 'Web-' }, [`metadata.generateName: Invalid value: "Web-": ${LABEL_RULE}`]],
  ['an invalid namespace', { 'metadata.namespace': 'Prod' }, [`metadata.namespace: Invalid value: "Prod": ${LABEL_RULE}`]],
  ['a label key with a space', { 'metadata.labels': { 'bad key': 'x' } }, [`metadata.labels: Invalid value: "bad key": ${KEY_RULE}`]],
  ['a label value with a space', { 'metadata.labels': { app: 'a b' } }, [`metadata.labels: Invalid value: "a b": ${VALUE_RULE}`]],
  ['a 64-character label value', { 'metadata.labels': { app: 'v'.repeat(64) } }, [`metadata.labels: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`]],
  ['an empty label key prefix', { 'metadata.labels': { '/app': 'x' } }, ['metadata.labels: Invalid value: "/app": prefix part must be non-empty']],
  ['a label value that is not a string', { 'metadata.labels': { app: 5 } }, ['metadata.labels[app]: Invalid value: 5: must be of type string']],
  ['annotations over 256 KiB in total', { 'metadata.annotations': { a: 'x'.repeat(262144) } }, ['metadata.annotations: Too long: may not be more than 262144 bytes']],
  ['an annotation key is case-insensitive', { 'metadata.annotations': { 'Example.com/Thing': 'x' } }, []],
  ['a metadata that is not an object', { metadata: 'web' }, ['metadata: Invalid value: "web": must be of type object', 'metadata.name: Required value: name or generateName is required']],
]);

table('validateStatefulSet: spec scalars', [
  ['podManagementPolicy empty', { 'spec.podManagementPolicy': '' }, ['spec.podManagementPolicy: Required value']],
  ['podManagementPolicy unknown', { 'spec.podManagementPolicy': 'Sometimes' }, ['spec.podManagementPolicy: Invalid value: "Sometimes": must be \'OrderedReady\' or \'Parallel\'']],
  ['replicas negative', { 'spec.replicas': -1 }, [`spec.replicas: Invalid value: -1: ${NEG}`]],
  ['replicas beyond int32', { 'spec.replicas': 2147483648 }, ['spec.replicas: Invalid value: 2147483648: must fit in a 32-bit signed integer']],
  ['replicas not an integer', { 'spec.replicas': 1.5 }, ['spec.replicas: Invalid value: 1.5: must be of type integer']],
  ['replicas a string', { 'spec.replicas': '3' }, ['spec.replicas: Invalid value: "3": must be of type integer']],
  ['minReadySeconds negative', { 'spec.minReadySeconds': -5 }, [`spec.minReadySeconds: Invalid value: -5: ${NEG}`]],
  ['ordinals.start negative', { 'spec.ordinals': { start: -1 } }, [`spec.ordinals.start: Invalid value: -1: ${NEG}`]],
  ['revisionHistoryLimit not an integer', { 'spec.revisionHistoryLimit': 'ten' }, ['spec.revisionHistoryLimit: Invalid value: "ten": must be of type integer']],
  ['serviceName not a DNS label', { 'spec.serviceName': 'Web_Svc' }, [`spec.serviceName: Invalid value: "Web_Svc": ${LABEL_RULE}`]],
  ['retention whenDeleted unknown', { 'spec.persistentVolumeClaimRetentionPolicy.whenDeleted': 'Keep' }, ['spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"']],
  ['retention whenScaled empty', { 'spec.persistentVolumeClaimRetentionPolicy.whenScaled': '' }, ['spec.persistentVolumeClaimRetentionPolicy.whenScaled: Unsupported value: "": supported values: "Retain", "Delete"']],
  ['spec not an object', { spec: [] }, ['spec: Invalid value: []: must be of type object']],
]);

table('validateStatefulSet: selector and template labels', [
  ['no selector', { 'spec.selector': undefined }, ['spec.selector: Required value', MISMATCH]],
  ['an empty selector', { 'spec.selector': {} }, ['spec.selector: Invalid value: {}: empty selector is invalid for statefulset']],
  ['a selector that does not match the template', { 'spec.selector': { matchLabels: { app: 'db' } } }, [MISMATCH]],
  ['template without labels', { 'spec.template.metadata': {} }, ['spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`']],
  ['a selector with an expression that matches', { 'spec.selector': { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] } }, []],
  [
    'an unknown operator',
    { 'spec.selector': { matchExpressions: [{ key: 'app', operator: 'Like', values: ['web'] }] } },
    [
      'spec.selector.matchExpressions[0].operator: Invalid value: "Like": not a valid selector operator',
      'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Like","values":["web"]}]}',
    ],
  ],
  [
    'In without values',
    { 'spec.selector': { matchExpressions: [{ key: 'app', operator: 'In' }] } },
    ["spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'", 'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"In"}]}'],
  ],
  [
    'Exists with values',
    { 'spec.selector': { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['x'] }] } },
    [
      "spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Exists","values":["x"]}]}',
    ],
  ],
  [
    'an invalid matchLabels value',
    { 'spec.selector': { matchLabels: { app: 'a b' } }, 'spec.template.metadata.labels': { app: 'a b' } },
    [`spec.selector.matchLabels: Invalid value: "a b": ${VALUE_RULE}`, 'spec.selector: Invalid value: {"matchLabels":{"app":"a b"}}', `spec.template.labels: Invalid value: "a b": ${VALUE_RULE}`],
  ],
  ['an invalid template label key', { 'spec.template.metadata.labels': { app: 'web', 'bad key': 'x' } }, [`spec.template.labels: Invalid value: "bad key": ${KEY_RULE}`]],
]);

table('validateStatefulSet: pod template rules of StatefulSets', [
  ['restartPolicy Never', { 'spec.template.spec.restartPolicy': 'Never' }, ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"']],
  ['restartPolicy missing (undefaulted)', { 'spec.template.spec.restartPolicy': undefined }, ['spec.template.spec.restartPolicy: Unsupported value: "": supported values: "Always"']],
  ['activeDeadlineSeconds set', { 'spec.template.spec.activeDeadlineSeconds': 30 }, ['spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported']],
]);
