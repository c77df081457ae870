import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ENFORCED_GATED, EXTENSION_ONLY } from '../../src/api/validation/index.js';
import { createMessages, gates, validOrdinalSet, validSet } from './fixtures.js';

type Row = [name: string, fields: Record<string, unknown>, want: string[]];
const enforced = (params: Record<string, unknown> = { partition: 0, maxUnavailable: 1 }): Record<string, unknown> => ({
  'spec.updateStrategy': { type: 'EnforcedRollingUpdate', enforcedRollingUpdate: params },
});
const ENF = 'spec.updateStrategy.enforcedRollingUpdate';
const PDS = 'spec.progressDeadlineSeconds';
const RPDB = 'spec.updateStrategy.rollingUpdate.respectPodDisruptionBudgets';
const TK = 'spec.updateStrategy.rollingUpdate.topologyKey';
const UO = 'spec.updateStrategy.rollingUpdate.updateOrder';
const PR = 'spec.updateStrategy.rollingUpdate.priority';
const IPS = 'spec.updateStrategy.rollingUpdate.inPlaceUpdateStrategy';
const byRole = { [UO]: 'Priority', [PR]: { label: 'role', values: ['replica', 'primary'] } };

describe('validateStatefulSet: extension fields in apps/v1 objects are Forbidden', () => {
  const rows: Row[] = [
    ['progressDeadlineSeconds', { [PDS]: 600 }, [`${PDS}: Forbidden: ${EXTENSION_ONLY}`]],
    ['progressDeadlineSeconds auto', { [PDS]: 'auto' }, [`${PDS}: Forbidden: ${EXTENSION_ONLY}`]],
    ['an enforcedRollingUpdate block', { [ENF]: { partition: 0 } }, [`${ENF}: Forbidden: ${EXTENSION_ONLY}`]],
    ['batchStartPolicy', { 'spec.updateStrategy.rollingUpdate.batchStartPolicy': 'Together' }, [`spec.updateStrategy.rollingUpdate.batchStartPolicy: Forbidden: ${EXTENSION_ONLY}`]],
    ['podUpdatePolicy', { 'spec.updateStrategy.rollingUpdate.podUpdatePolicy': 'InPlaceIfPossible' }, [`spec.updateStrategy.rollingUpdate.podUpdatePolicy: Forbidden: ${EXTENSION_ONLY}`]],
    ['inPlaceUpdateStrategy', { [IPS]: { gracePeriodSeconds: 30 } }, [`${IPS}: Forbidden: ${EXTENSION_ONLY}`]],
    ['type EnforcedRollingUpdate', { 'spec.updateStrategy': { type: 'EnforcedRollingUpdate' } }, [`spec.updateStrategy.type: Forbidden: EnforcedRollingUpdate ${EXTENSION_ONLY}`]],
    ['respectPodDisruptionBudgets', { [RPDB]: true }, [`${RPDB}: Forbidden: ${EXTENSION_ONLY}`]],
    ['respectPodDisruptionBudgets false', { [RPDB]: false }, [`${RPDB}: Forbidden: ${EXTENSION_ONLY}`]],
    ['topologyKey', { [TK]: 'topology.kubernetes.io/zone' }, [`${TK}: Forbidden: ${EXTENSION_ONLY}`]],
    ['updateOrder and priority', byRole, [`${UO}: Forbidden: ${EXTENSION_ONLY}`, `${PR}: Forbidden: ${EXTENSION_ONLY}`]],
    ['onFailure', { 'spec.updateStrategy.rollingUpdate.onFailure': 'Rollback' }, [`spec.updateStrategy.rollingUpdate.onFailure: Forbidden: ${EXTENSION_ONLY}`]],
  ];
  for (const [name, fields, want] of rows) it(name, () => assert.deepEqual(createMessages(fields, validSet()), want));
  it('the message names the apiVersion to use', () => assert.match(EXTENSION_ONLY, /apiVersion: apps\.ordinal\.dev\/v1/));
});

describe('validateStatefulSet: extensions in apps.ordinal.dev/v1', () => {
  const rows: Row[] = [
    ['the defaulted fixture (batchStartPolicy Ordered, progressDeadlineSeconds 600)', {}, []],
    ['batchStartPolicy Together', { 'spec.updateStrategy.rollingUpdate.batchStartPolicy': 'Together' }, []],
    ['batchStartPolicy unknown', { 'spec.updateStrategy.rollingUpdate.batchStartPolicy': 'Parallel' }, ['spec.updateStrategy.rollingUpdate.batchStartPolicy: Unsupported value: "Parallel": supported values: "Ordered", "Together"']],
    ['respectPodDisruptionBudgets true', { [RPDB]: true }, []],
    ['respectPodDisruptionBudgets false', { [RPDB]: false }, []],
    ['respectPodDisruptionBudgets not a boolean', { [RPDB]: 'yes' }, [`${RPDB}: Invalid value: "yes": must be of type boolean`]],
    ['topologyKey a label key', { [TK]: 'topology.kubernetes.io/zone' }, []],
    ['topologyKey without a prefix', { [TK]: 'rack' }, []],
    ['topologyKey not a string', { [TK]: 1 }, [`${TK}: Invalid value: 1: must be of type string`]],
    ['topologyKey empty', { [TK]: '' }, [`${TK}: Invalid value: "": name part must be non-empty`, `${TK}: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`]],
    ['updateOrder Priority by a label', byRole, []],
    ['updateOrder Ordinal', { [UO]: 'Ordinal' }, []],
    ['updateOrder unknown', { [UO]: 'Role' }, [`${UO}: Unsupported value: "Role": supported values: "Ordinal", "Priority"`]],
    ['updateOrder Priority without priority', { [UO]: 'Priority' }, [`${PR}: Required value: updateOrder Priority reads the priority from a pod label`]],
    ['priority without updateOrder Priority', { [PR]: { label: 'role' } }, [`${PR}: Invalid value: {"label":"role"}: only allowed with updateOrder 'Priority'`]],
    ['priority without a label', { [UO]: 'Priority', [PR]: { values: ['primary'] } }, [`${PR}.label: Required value`]],
    ['priority label not a label key', { [UO]: 'Priority', [PR]: { label: 'a/b/c' } }, [`${PR}.label: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`]],
    ['priority value not a label value', { [UO]: 'Priority', [PR]: { label: 'role', values: ['pri mary'] } }, [`${PR}.values[0]: Invalid value: "pri mary": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`]],
    ['podUpdatePolicy InPlaceIfPossible', { 'spec.updateStrategy.rollingUpdate.podUpdatePolicy': 'InPlaceIfPossible' }, []],
    ['podUpdatePolicy InPlaceOnly', { 'spec.updateStrategy.rollingUpdate.podUpdatePolicy': 'InPlaceOnly' }, []],
    [
      'podUpdatePolicy unknown',
      { 'spec.updateStrategy.rollingUpdate.podUpdatePolicy': 'InPlace' },
      ['spec.updateStrategy.rollingUpdate.podUpdatePolicy: Unsupported value: "InPlace": supported values: "Recreate", "InPlaceIfPossible", "InPlaceOnly"'],
    ],
    ['a drain of 30 s', { 'spec.updateStrategy.rollingUpdate.podUpdatePolicy': 'InPlaceIfPossible', [IPS]: { gracePeriodSeconds: 30 } }, []],
    ['a drain of 0 s', { 'spec.updateStrategy.rollingUpdate.podUpdatePolicy': 'InPlaceOnly', [IPS]: { gracePeriodSeconds: 0 } }, []],
    ['a drain under Recreate (accepted, does nothing)', { [IPS]: { gracePeriodSeconds: 30 } }, []],
    ['a negative drain', { [IPS]: { gracePeriodSeconds: -1 } }, [`${IPS}.gracePeriodSeconds: Invalid value: -1: must be greater than or equal to 0`]],
    ['a drain not an integer', { [IPS]: { gracePeriodSeconds: '30s' } }, [`${IPS}.gracePeriodSeconds: Invalid value: "30s": must be of type integer`]],
    ['inPlaceUpdateStrategy not an object', { [IPS]: 30 }, [`${IPS}: Invalid value: 30: must be of type object`]],
    ['podUpdatePolicy not a string', { 'spec.updateStrategy.rollingUpdate.podUpdatePolicy': 1 }, ['spec.updateStrategy.rollingUpdate.podUpdatePolicy: Invalid value: 1: must be of type string']],
    ['onFailure Rollback', { 'spec.updateStrategy.rollingUpdate.onFailure': 'Rollback' }, []],
    ['onFailure unknown', { 'spec.updateStrategy.rollingUpdate.onFailure': 'Retry' }, ['spec.updateStrategy.rollingUpdate.onFailure: Unsupported value: "Retry": supported values: "Halt", "Rollback"']],
    ['onFailure not a string', { 'spec.updateStrategy.rollingUpdate.onFailure': true }, ['spec.updateStrategy.rollingUpdate.onFailure: Invalid value: true: must be of type string']],
    ['EnforcedRollingUpdate with onFailure Rollback', enforced({ partition: 0, maxUnavailable: 1, onFailure: 'Rollback' }), []],
    ['enforced onFailure unknown', enforced({ onFailure: 'rollback' }), [`${ENF}.onFailure: Unsupported value: "rollback": supported values: "Halt", "Rollback"`]],
    ['EnforcedRollingUpdate with its block', enforced(), []],
    ['EnforcedRollingUpdate without a block', { 'spec.updateStrategy': { type: 'EnforcedRollingUpdate' } }, []],
    ['EnforcedRollingUpdate with a percentage', enforced({ partition: 2, maxUnavailable: '25%' }), []],
    [
      'EnforcedRollingUpdate with a rollingUpdate block',
      { 'spec.updateStrategy.type': 'EnforcedRollingUpdate' },
      ['spec.updateStrategy.rollingUpdate: Invalid value: {"Partition":0,"MaxUnavailable":1}: only allowed for updateStrategy \'RollingUpdate\''],
    ],
    ['enforced partition negative', enforced({ partition: -1 }), [`${ENF}.partition: Invalid value: -1: must be greater than or equal to 0`]],
    ['enforced maxUnavailable 0', enforced({ maxUnavailable: 0 }), [`${ENF}.maxUnavailable: Invalid value: 0: cannot be 0`]],
    ['enforced maxUnavailable above 100%', enforced({ maxUnavailable: '150%' }), [`${ENF}.maxUnavailable: Invalid value: "150%": must not be greater than 100%`]],
    ['an enforcedRollingUpdate block under RollingUpdate', { [ENF]: { partition: 0 } }, [`${ENF}: Invalid value: {"partition":0}: only allowed for updateStrategy 'EnforcedRollingUpdate'`]],
    [
      'an unknown type lists every strategy',
      { 'spec.updateStrategy': { type: 'Blue' } },
      ['spec.updateStrategy: Invalid value: {"Type":"Blue","RollingUpdate":null}: must be \'RollingUpdate\', \'OnDelete\', \'Recreate\' or \'EnforcedRollingUpdate\''],
    ],
    ['progressDeadlineSeconds 1', { [PDS]: 1 }, []],
    ['progressDeadlineSeconds 0', { [PDS]: 0 }, [`${PDS}: Invalid value: 0: must be greater than minReadySeconds`]],
    ['progressDeadlineSeconds negative', { [PDS]: -1 }, [`${PDS}: Invalid value: -1: must be greater than or equal to 0`, `${PDS}: Invalid value: -1: must be greater than minReadySeconds`]],
    ['progressDeadlineSeconds equal to minReadySeconds', { [PDS]: 30, 'spec.minReadySeconds': 30 }, [`${PDS}: Invalid value: 30: must be greater than minReadySeconds`]],
    ['progressDeadlineSeconds above minReadySeconds', { [PDS]: 31, 'spec.minReadySeconds': 30 }, []],
    ['progressDeadlineSeconds not an integer', { [PDS]: '10m' }, [`${PDS}: Invalid value: "10m": must be an integer or "auto"`]],
    ['progressDeadlineSeconds auto', { [PDS]: 'auto' }, []],
    ['progressDeadlineSeconds auto with minReadySeconds', { [PDS]: 'auto', 'spec.minReadySeconds': 3000 }, []],
    ['progressDeadlineSeconds Auto (case matters)', { [PDS]: 'Auto' }, [`${PDS}: Invalid value: "Auto": must be an integer or "auto"`]],
    ['progressDeadlineSeconds a number', { [PDS]: 1.5 }, [`${PDS}: Invalid value: 1.5: must be of type integer`]],
  ];
  for (const [name, fields, want] of rows) it(name, () => assert.deepEqual(createMessages(fields, validOrdinalSet()), want));

  it('EnforcedRollingUpdate needs its gate on create', () => {
    const off = gates({ EnforcedRollingUpdateInStatefulSet: false });
    assert.deepEqual(createMessages(enforced(), validOrdinalSet(), off), [`spec.updateStrategy.type: Forbidden: ${ENFORCED_GATED}`]);
  });
});
