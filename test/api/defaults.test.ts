import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultStatefulSet } from '../../src/api/defaults.js';
import { APPS_V1, ORDINAL_V1, type StatefulSet } from '../../src/api/types.js';
import { features, gates, getPath, rawSet, withFields } from './fixtures.js';

const gateOff = gates({ MaxUnavailableStatefulSet: false });
const defaulted = (fields: Record<string, unknown>, apiVersion = APPS_V1, f = features): StatefulSet =>
  defaultStatefulSet(withFields(rawSet(apiVersion), fields), f);

describe('defaultStatefulSet: upstream SetDefaults_StatefulSet (§1.4)', () => {
  // [description, fields set on the raw set, path, expected value after defaulting]
  const table: Array<[string, Record<string, unknown>, string, unknown]> = [
    ['1. podManagementPolicy empty → OrderedReady', {}, 'spec.podManagementPolicy', 'OrderedReady'],
    ['1. an explicit podManagementPolicy is kept', { 'spec.podManagementPolicy': 'Parallel' }, 'spec.podManagementPolicy', 'Parallel'],
    ['2. empty type → RollingUpdate', {}, 'spec.updateStrategy.type', 'RollingUpdate'],
    ['2. empty type creates the rollingUpdate block', {}, 'spec.updateStrategy.rollingUpdate.partition', 0],
    ['2. explicit type RollingUpdate without a block keeps it absent', { 'spec.updateStrategy': { type: 'RollingUpdate' } }, 'spec.updateStrategy.rollingUpdate', undefined],
    ['2. OnDelete gets no block', { 'spec.updateStrategy': { type: 'OnDelete' } }, 'spec.updateStrategy.rollingUpdate', undefined],
    ['2. an existing block is kept when the type is empty', { 'spec.updateStrategy': { rollingUpdate: { partition: 2 } } }, 'spec.updateStrategy.rollingUpdate.partition', 2],
    ['3. partition nil → 0 in an explicit block', { 'spec.updateStrategy': { type: 'RollingUpdate', rollingUpdate: {} } }, 'spec.updateStrategy.rollingUpdate.partition', 0],
    ['3. maxUnavailable nil → 1 with the gate on', {}, 'spec.updateStrategy.rollingUpdate.maxUnavailable', 1],
    ['3. an explicit maxUnavailable is kept', { 'spec.updateStrategy.rollingUpdate.maxUnavailable': '50%' }, 'spec.updateStrategy.rollingUpdate.maxUnavailable', '50%'],
    ['3. OnDelete with a stray block is not defaulted', { 'spec.updateStrategy': { type: 'OnDelete', rollingUpdate: {} } }, 'spec.updateStrategy.rollingUpdate.partition', undefined],
    ['4. retention policy nil → Retain/Retain', {}, 'spec.persistentVolumeClaimRetentionPolicy', { whenDeleted: 'Retain', whenScaled: 'Retain' }],
    ['4. an empty whenScaled → Retain, whenDeleted kept', { 'spec.persistentVolumeClaimRetentionPolicy': { whenDeleted: 'Delete' } }, 'spec.persistentVolumeClaimRetentionPolicy', { whenDeleted: 'Delete', whenScaled: 'Retain' }],
    ['5. replicas nil → 1', {}, 'spec.replicas', 1],
    ['5. replicas 0 is kept', { 'spec.replicas': 0 }, 'spec.replicas', 0],
    ['6. revisionHistoryLimit nil → 10', {}, 'spec.revisionHistoryLimit', 10],
    ['6. a negative revisionHistoryLimit is kept', { 'spec.revisionHistoryLimit': -2 }, 'spec.revisionHistoryLimit', -2],
    ['no selector defaulting from template labels', { 'spec.selector': undefined }, 'spec.selector', undefined],
    ['ordinals are not defaulted', {}, 'spec.ordinals', undefined],
    ['minReadySeconds is not defaulted', {}, 'spec.minReadySeconds', undefined],
  ];
  for (const [name, fields, path, want] of table) {
    it(name, () => assert.deepEqual(getPath(defaulted(fields), path), want));
  }

  it('3. maxUnavailable stays nil when MaxUnavailableStatefulSet is off', () => {
    const set = defaultStatefulSet(rawSet(), gateOff);
    assert.deepEqual(set.spec.updateStrategy?.rollingUpdate, { partition: 0 });
  });

  it('applies the pod template and claim template defaults', () => {
    const set = defaulted({});
    assert.equal(getPath(set, 'spec.template.spec.restartPolicy'), 'Always');
    assert.equal(getPath(set, 'spec.template.spec.containers.0.imagePullPolicy'), 'IfNotPresent');
    assert.equal(getPath(set, 'spec.volumeClaimTemplates.0.spec.volumeMode'), 'Filesystem');
    assert.equal(getPath(set, 'spec.volumeClaimTemplates.0.status.phase'), 'Pending');
  });

  it('stamps apiVersion/kind on apps/v1 claim templates (conversion, issue #87583), not on CRD objects', () => {
    assert.equal(getPath(defaulted({ 'spec.volumeClaimTemplates.0.apiVersion': 'v9' }), 'spec.volumeClaimTemplates.0.apiVersion'), 'v1');
    assert.equal(getPath(defaulted({}), 'spec.volumeClaimTemplates.0.kind'), 'PersistentVolumeClaim');
    assert.equal(getPath(defaulted({}, ORDINAL_V1), 'spec.volumeClaimTemplates.0.apiVersion'), undefined);
  });

  it('gives an absent spec the zero-struct defaults', () => {
    const set = defaultStatefulSet({ metadata: { name: 'x' } } as StatefulSet, features);
    assert.equal(getPath(set, 'spec.replicas'), 1);
    assert.equal(getPath(set, 'spec.template.spec.dnsPolicy'), 'ClusterFirst');
  });

  it('never mutates its input', () => {
    const input = rawSet(ORDINAL_V1);
    const before = structuredClone(input);
    defaultStatefulSet(input, features);
    assert.deepEqual(input, before);
  });

  it('is idempotent', () => {
    const once = defaulted({}, ORDINAL_V1);
    assert.deepEqual(defaultStatefulSet(once, features), once);
  });

  it('leaves mistyped fields alone for validation to report', () => {
    const set = defaulted({ 'spec.updateStrategy': 'fast', 'spec.template.spec': 7, 'spec.replicas': 'three' });
    assert.equal(getPath(set, 'spec.updateStrategy'), 'fast');
    assert.equal(getPath(set, 'spec.template.spec'), 7);
    assert.equal(getPath(set, 'spec.replicas'), 'three');
  });
});

describe('defaultStatefulSet: Ordinal extensions (apps.ordinal.dev/v1 only)', () => {
  const table: Array<[string, Record<string, unknown>, string, unknown]> = [
    ['batchStartPolicy → Ordered in a rollingUpdate block', {}, 'spec.updateStrategy.rollingUpdate.batchStartPolicy', 'Ordered'],
    ['an explicit batchStartPolicy is kept', { 'spec.updateStrategy.rollingUpdate.batchStartPolicy': 'Together' }, 'spec.updateStrategy.rollingUpdate.batchStartPolicy', 'Together'],
    ['no block, no batchStartPolicy', { 'spec.updateStrategy': { type: 'RollingUpdate' } }, 'spec.updateStrategy.rollingUpdate', undefined],
    ['podUpdatePolicy → Recreate in a rollingUpdate block', {}, 'spec.updateStrategy.rollingUpdate.podUpdatePolicy', 'Recreate'],
    ['an explicit podUpdatePolicy is kept', { 'spec.updateStrategy.rollingUpdate.podUpdatePolicy': 'InPlaceOnly' }, 'spec.updateStrategy.rollingUpdate.podUpdatePolicy', 'InPlaceOnly'],
    ['progressDeadlineSeconds → 600', {}, 'spec.progressDeadlineSeconds', 600],
    ['an explicit progressDeadlineSeconds is kept', { 'spec.progressDeadlineSeconds': 30 }, 'spec.progressDeadlineSeconds', 30],
    ['onFailure → Halt in a rollingUpdate block', {}, 'spec.updateStrategy.rollingUpdate.onFailure', 'Halt'],
    ['an explicit onFailure is kept', { 'spec.updateStrategy.rollingUpdate.onFailure': 'Rollback' }, 'spec.updateStrategy.rollingUpdate.onFailure', 'Rollback'],
    ['EnforcedRollingUpdate gets {partition: 0, maxUnavailable: 1, onFailure: Halt}', { 'spec.updateStrategy': { type: 'EnforcedRollingUpdate' } }, 'spec.updateStrategy.enforcedRollingUpdate', { partition: 0, maxUnavailable: 1, onFailure: 'Halt' }],
    [
      'EnforcedRollingUpdate keeps explicit values',
      { 'spec.updateStrategy': { type: 'EnforcedRollingUpdate', enforcedRollingUpdate: { maxUnavailable: '20%', onFailure: 'Rollback' } } },
      'spec.updateStrategy.enforcedRollingUpdate',
      { partition: 0, maxUnavailable: '20%', onFailure: 'Rollback' },
    ],
    ['other types get no enforcedRollingUpdate block', {}, 'spec.updateStrategy.enforcedRollingUpdate', undefined],
  ];
  for (const [name, fields, path, want] of table) {
    it(name, () => assert.deepEqual(getPath(defaulted(fields, ORDINAL_V1), path), want));
  }

  it('the enforcedRollingUpdate maxUnavailable default does not depend on MaxUnavailableStatefulSet', () => {
    const set = defaulted({ 'spec.updateStrategy': { type: 'EnforcedRollingUpdate' } }, ORDINAL_V1, gateOff);
    assert.equal(getPath(set, 'spec.updateStrategy.enforcedRollingUpdate.maxUnavailable'), 1);
  });

  it('apps/v1 objects never get extension defaults', () => {
    const set = defaulted({ 'spec.updateStrategy': { type: 'EnforcedRollingUpdate' } }, APPS_V1);
    assert.equal(getPath(set, 'spec.progressDeadlineSeconds'), undefined);
    assert.equal(getPath(set, 'spec.updateStrategy.enforcedRollingUpdate'), undefined);
    assert.equal(getPath(defaulted({}, APPS_V1), 'spec.updateStrategy.rollingUpdate.batchStartPolicy'), undefined);
    assert.equal(getPath(defaulted({}, APPS_V1), 'spec.updateStrategy.rollingUpdate.podUpdatePolicy'), undefined);
    assert.equal(getPath(defaulted({}, APPS_V1), 'spec.updateStrategy.rollingUpdate.onFailure'), undefined);
  });
});
