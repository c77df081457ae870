import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { StatefulSet } from '../../src/api/types.js';
import { ENFORCED_GATED, RECREATE_GATED, validateStatefulSetUpdate } from '../../src/api/validation/index.js';
import { DNS1123_LABEL_MESSAGE } from '../../src/api/schema/crd-rules.js';
import { features, gates, messages, validOrdinalSet, validSet, withFields } from './fixtures.js';

const updateMessages = (prev: StatefulSet, fields: Record<string, unknown>, f = features): string[] =>
  messages(validateStatefulSetUpdate(withFields(prev, fields), prev, f));

describe('validateStatefulSetUpdate: mutable fields', () => {
  const rows: Array<[string, Record<string, unknown>]> = [
    ['nothing changed', {}],
    ['replicas', { 'spec.replicas': 7 }],
    ['the template', { 'spec.template.spec.containers.0.image': 'nginx:1.28' }],
    ['updateStrategy', { 'spec.updateStrategy': { type: 'OnDelete' } }],
    ['minReadySeconds', { 'spec.minReadySeconds': 30 }],
    ['ordinals', { 'spec.ordinals': { start: 5 } }],
    ['revisionHistoryLimit', { 'spec.revisionHistoryLimit': 3 }],
    ['persistentVolumeClaimRetentionPolicy', { 'spec.persistentVolumeClaimRetentionPolicy': { whenDeleted: 'Delete', whenScaled: 'Delete' } }],
    ['labels and annotations', { 'metadata.labels': { app: 'web', team: 'db' }, 'metadata.annotations': { note: 'x' } }],
    ['nothing, when namespace and uid are left out (filled by the server)', { 'metadata.namespace': undefined, 'metadata.uid': undefined }],
  ];
  for (const [name, fields] of rows) it(`allows changing ${name}`, () => assert.deepEqual(updateMessages(validSet(), fields), []));

  it('still validates the new values', () => {
    assert.deepEqual(updateMessages(validSet(), { 'spec.replicas': -1 }), ['spec.replicas: Invalid value: -1: must be greater than or equal to 0']);
  });
});

describe('validateStatefulSetUpdate: immutable fields (1.37: one "field is immutable" per field)', () => {
  const rows: Array<[string, Record<string, unknown>, string[]]> = [
    ['serviceName', { 'spec.serviceName': 'other' }, ['spec.serviceName: Invalid value: "other": field is immutable']],
    ['serviceName cleared', { 'spec.serviceName': undefined }, ['spec.serviceName: Invalid value: "": field is immutable']],
    ['podManagementPolicy', { 'spec.podManagementPolicy': 'Parallel' }, ['spec.podManagementPolicy: Invalid value: "Parallel": field is immutable']],
    [
      'selector',
      { 'spec.selector': { matchLabels: { app: 'web', v: '2' } }, 'spec.template.metadata.labels': { app: 'web', v: '2' } },
      ['spec.selector: Invalid value: {"matchLabels":{"app":"web","v":"2"}}: field is immutable'],
    ],
    [
      'volumeClaimTemplates',
      { 'spec.volumeClaimTemplates.0.spec.resources.requests.storage': '2Gi' },
      [
        'spec.volumeClaimTemplates: Invalid value: [{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"2Gi"}},"volumeMode":"Filesystem"},"status":{"phase":"Pending"},"apiVersion":"v1","kind":"PersistentVolumeClaim"}]: field is immutable',
      ],
    ],
    ['metadata.name', { 'metadata.name': 'web2' }, ['metadata.name: Invalid value: "web2": field is immutable']],
    ['metadata.namespace', { 'metadata.namespace': 'prod' }, ['metadata.namespace: Invalid value: "prod": field is immutable']],
    ['metadata.uid', { 'metadata.uid': 'u2' }, ['metadata.uid: Invalid value: "u2": field is immutable']],
  ];
  for (const [name, fields, want] of rows) it(`rejects changing ${name}`, () => assert.deepEqual(updateMessages(validSet(), fields), want));
});

describe('validateStatefulSetUpdate: tolerance for old objects', () => {
  it('does not re-validate a legacy subdomain name or an invalid serviceName', () => {
    const prev = withFields(validSet(), { 'metadata.name': 'web.example', 'spec.serviceName': 'Web_Svc' });
    assert.deepEqual(updateMessages(prev, { 'spec.replicas': 2 }), []);
  });
  it('does not re-validate volumeClaimTemplates', () => {
    const prev = withFields(validSet(), { 'spec.volumeClaimTemplates.0.spec.accessModes': undefined });
    assert.deepEqual(updateMessages(prev, { 'spec.replicas': 2 }), []);
  });
  it('ratchets the pod template: a stored invalid template may stay invalid', () => {
    const prev = withFields(validSet(), { 'spec.template.spec.containers.0.image': undefined });
    assert.deepEqual(updateMessages(prev, { 'spec.replicas': 2 }), []);
  });
  it('but a valid template may not become invalid', () => {
    assert.deepEqual(updateMessages(validSet(), { 'spec.template.spec.containers.0.image': '' }), [
      'spec.template.spec.containers[0].image: Required value',
    ]);
  });
});

describe('validateStatefulSetUpdate: gated strategy transitions', () => {
  const off = gates({ StatefulSetRecreateStrategy: false, EnforcedRollingUpdateInStatefulSet: false });
  const recreate = { 'spec.updateStrategy': { type: 'Recreate' } };
  const rolling = { 'spec.updateStrategy': { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } } };
  const enforced = { 'spec.updateStrategy': { type: 'EnforcedRollingUpdate', enforcedRollingUpdate: { partition: 0, maxUnavailable: 1 } } };

  it('switching to Recreate needs the gate', () => {
    assert.deepEqual(updateMessages(validSet(), recreate, off), [
      `spec.updateStrategy: Invalid value: {"Type":"Recreate","RollingUpdate":null}: must be 'RollingUpdate' or 'OnDelete'`,
    ]);
    const ordinal = { apiVersion: 'apps.ordinal.dev/v1', ...recreate };
    assert.deepEqual(updateMessages(withFields(validSet(), { apiVersion: 'apps.ordinal.dev/v1' }), ordinal, off), [
      `spec.updateStrategy.type: Forbidden: ${RECREATE_GATED}`,
    ]);
    assert.deepEqual(updateMessages(validSet(), recreate, features), []);
  });
  it('a set already on Recreate may stay on it with the gate off', () => {
    assert.deepEqual(updateMessages(withFields(validSet(), recreate), { 'spec.replicas': 4 }, off), []);
  });
  it('leaving Recreate is allowed with the gate off', () => {
    assert.deepEqual(updateMessages(withFields(validSet(), recreate), rolling, off), []);
  });
  it('EnforcedRollingUpdate follows the same rules', () => {
    const prev = withFields(validOrdinalSet(), enforced);
    assert.deepEqual(updateMessages(validOrdinalSet(), enforced, off), [`spec.updateStrategy.type: Forbidden: ${ENFORCED_GATED}`]);
    assert.deepEqual(updateMessages(prev, { 'spec.replicas': 4 }, off), []);
    assert.deepEqual(updateMessages(prev, rolling, off), []);
  });
});

describe('validateStatefulSetUpdate: malformed input', () => {
  it('reports instead of throwing', () => {
    assert.deepEqual(messages(validateStatefulSetUpdate(null, validSet(), features)).slice(0, 2), [
      'metadata.name: Invalid value: "": field is immutable',
      'spec.podManagementPolicy: Required value',
    ]);
    assert.doesNotThrow(() => validateStatefulSetUpdate(validSet(), null as unknown as StatefulSet, features));
  });
});

describe('validateStatefulSetUpdate: claim templates added and removed (apps.ordinal.dev/v1)', () => {
  const inPlace = (): StatefulSet => withFields(validOrdinalSet(), { 'spec.volumeClaimUpdatePolicy': 'InPlace' });
  const data = () => structuredClone(validOrdinalSet().spec.volumeClaimTemplates?.[0]);
  const wal = { metadata: { name: 'wal' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
  const FIXED =
    'spec.volumeClaimTemplates: Forbidden: claim templates may be added, removed, renamed or reordered only with spec.volumeClaimUpdatePolicy: InPlace ' +
    '(the change is then a new revision that replaces the pods in rollout order); set it in the same update, or keep the templates by name and order';

  it('refuses a list that changes under OnDelete, at the list', () => {
    assert.deepEqual(updateMessages(validOrdinalSet(), { 'spec.volumeClaimTemplates': [data(), wal] }), [FIXED]);
    assert.deepEqual(updateMessages(validOrdinalSet(), { 'spec.volumeClaimTemplates': [] }), [FIXED]);
    assert.deepEqual(updateMessages(inPlace(), { 'spec.volumeClaimTemplates': [data(), wal], 'spec.volumeClaimUpdatePolicy': 'OnDelete' }), [FIXED]);
  });

  it('allows adding, removing, renaming and reordering under InPlace (set in the same update too)', () => {
    assert.deepEqual(updateMessages(inPlace(), { 'spec.volumeClaimTemplates': [data(), wal] }), []);
    assert.deepEqual(updateMessages(validOrdinalSet(), { 'spec.volumeClaimTemplates': [wal, data()], 'spec.volumeClaimUpdatePolicy': 'InPlace' }), []);
    assert.deepEqual(updateMessages(inPlace(), { 'spec.volumeClaimTemplates': [wal] }), []);
    assert.deepEqual(updateMessages(inPlace(), { 'spec.volumeClaimTemplates': undefined }), []);
  });

  it('checks a kept template against its stored version by name, wherever it moved', () => {
    const moved = { ...data(), spec: { ...data()?.spec, storageClassName: 'fast' } };
    assert.deepEqual(updateMessages(inPlace(), { 'spec.volumeClaimTemplates': [wal, moved] }), ['spec.volumeClaimTemplates[1].spec.storageClassName: Invalid value: "fast": field is immutable']);
  });

  it('validates an added template as on create, and refuses two of one name', () => {
    const bare = { metadata: { name: 'Wal' }, spec: { resources: { requests: {} } } };
    assert.deepEqual(updateMessages(inPlace(), { 'spec.volumeClaimTemplates': [data(), bare] }), [
      `spec.volumeClaimTemplates[1].metadata.name: Invalid value: "Wal": ${DNS1123_LABEL_MESSAGE}`,
      'spec.volumeClaimTemplates[1].spec.accessModes: Required value: at least 1 access mode is required',
      'spec.volumeClaimTemplates[1].spec.resources[storage]: Required value',
    ]);
    assert.deepEqual(updateMessages(inPlace(), { 'spec.volumeClaimTemplates': [data(), data()] }), ['spec.volumeClaimTemplates[1].metadata.name: Duplicate value: "data"']);
  });

  it('refuses a volumeMount of a removed template unless a pod volume of its name exists', () => {
    const prev = withFields(inPlace(), { 'spec.volumeClaimTemplates': [data(), wal], 'spec.template.spec.containers.0.volumeMounts': [{ name: 'wal', mountPath: '/wal' }] });
    assert.deepEqual(updateMessages(prev, { 'spec.volumeClaimTemplates': [data()] }), ['spec.template.spec.containers[0].volumeMounts[0].name: Not found: "wal"']);
    assert.deepEqual(updateMessages(prev, { 'spec.volumeClaimTemplates': [data()], 'spec.template.spec.volumes': [{ name: 'wal', emptyDir: {} }] }), []);
  });
});
