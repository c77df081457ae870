import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RECREATE_GATED } from '../../src/api/validation/index.js';
import { createMessages, gates, validSet } from './fixtures.js';

const PERCENT_RULE =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";
const MU = 'spec.updateStrategy.rollingUpdate.maxUnavailable';

type Row = [name: string, fields: Record<string, unknown>, want: string[]];
const run = (rows: Row[], f = gates({})): void => {
  for (const [name, fields, want] of rows) it(name, () => assert.deepEqual(createMessages(fields, validSet(), f), want));
};

describe('validateStatefulSet: updateStrategy type switch', () => {
  run([
    ['empty type', { 'spec.updateStrategy': { type: '' } }, ['spec.updateStrategy: Required value']],
    ['missing updateStrategy', { 'spec.updateStrategy': undefined }, ['spec.updateStrategy: Required value']],
    [
      'an unknown type (printed like the Go struct, classic message)',
      { 'spec.updateStrategy': { type: 'Canary' } },
      ['spec.updateStrategy: Invalid value: {"Type":"Canary","RollingUpdate":null}: must be \'RollingUpdate\' or \'OnDelete\''],
    ],
    [
      'OnDelete with a rollingUpdate block',
      { 'spec.updateStrategy.type': 'OnDelete' },
      ['spec.updateStrategy.rollingUpdate: Invalid value: {"Partition":0,"MaxUnavailable":1}: only allowed for updateStrategy \'RollingUpdate\''],
    ],
    ['OnDelete without a block', { 'spec.updateStrategy': { type: 'OnDelete' } }, []],
    ['explicit RollingUpdate without a block', { 'spec.updateStrategy': { type: 'RollingUpdate' } }, []],
    ['a type that is not a string', { 'spec.updateStrategy.type': 3 }, ['spec.updateStrategy.type: Invalid value: 3: must be of type string']],
    ['an updateStrategy that is not an object', { 'spec.updateStrategy': 'RollingUpdate' }, ['spec.updateStrategy: Invalid value: "RollingUpdate": must be of type object']],
    ['partition negative', { 'spec.updateStrategy.rollingUpdate.partition': -1 }, ['spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0']],
    ['partition above replicas is fine', { 'spec.updateStrategy.rollingUpdate.partition': 100 }, []],
  ]);
});

describe('validateStatefulSet: rollingUpdate.maxUnavailable', () => {
  run([
    ['int 1', { [MU]: 1 }, []],
    ['int above replicas (not checked against replicas)', { 'spec.replicas': 3, [MU]: 50 }, []],
    ['"100%"', { [MU]: '100%' }, []],
    ['"1%"', { [MU]: '1%' }, []],
    ['int 0', { [MU]: 0 }, [`${MU}: Invalid value: 0: cannot be 0`]],
    ['"0%"', { [MU]: '0%' }, [`${MU}: Invalid value: "0%": cannot be 0`]],
    ['int -1', { [MU]: -1 }, [`${MU}: Invalid value: -1: must be greater than or equal to 0`]],
    ['"101%"', { [MU]: '101%' }, [`${MU}: Invalid value: "101%": must not be greater than 100%`]],
    ['"5" (no %)', { [MU]: '5' }, [`${MU}: Invalid value: "5": ${PERCENT_RULE}`]],
    ['"abc" (also counts as 0, as upstream)', { [MU]: 'abc' }, [`${MU}: Invalid value: "abc": ${PERCENT_RULE}`, `${MU}: Invalid value: "abc": cannot be 0`]],
    ['"1.5%"', { [MU]: '1.5%' }, [`${MU}: Invalid value: "1.5%": ${PERCENT_RULE}`, `${MU}: Invalid value: "1.5%": cannot be 0`]],
    ['"-1%"', { [MU]: '-1%' }, [`${MU}: Invalid value: "-1%": ${PERCENT_RULE}`, `${MU}: Invalid value: "-1%": cannot be 0`]],
    ['a fraction', { [MU]: 1.5 }, [`${MU}: Invalid value: 1.5: must be an integer or percentage (e.g '5%%')`]],
    ['a boolean', { [MU]: true }, [`${MU}: Invalid value: true: must be an integer or percentage (e.g '5%%')`]],
    ['beyond int32', { [MU]: 2 ** 40 }, [`${MU}: Invalid value: 1099511627776: must fit in a 32-bit signed integer`]],
  ]);

  describe('with MaxUnavailableStatefulSet off, a present value is still validated', () => {
    run([['int 0', { [MU]: 0 }, [`${MU}: Invalid value: 0: cannot be 0`]]], gates({ MaxUnavailableStatefulSet: false }));
  });
});

describe('validateStatefulSet: Recreate (StatefulSetRecreateStrategy)', () => {
  describe('gate on', () => {
    run([
      ['Recreate is accepted', { 'spec.updateStrategy': { type: 'Recreate' } }, []],
      [
        'Recreate with a rollingUpdate block',
        { 'spec.updateStrategy.type': 'Recreate' },
        ['spec.updateStrategy.rollingUpdate: Invalid value: {"Partition":0,"MaxUnavailable":1}: only allowed for updateStrategy \'RollingUpdate\''],
      ],
    ]);
  });
  describe('gate off', () => {
    run(
      [
        [
          'Recreate is rejected on create as a real 1.37 kube-apiserver does',
          { 'spec.updateStrategy': { type: 'Recreate' } },
          [`spec.updateStrategy: Invalid value: {"Type":"Recreate","RollingUpdate":null}: must be 'RollingUpdate' or 'OnDelete'`],
        ],
        [
          'Recreate on apps.ordinal.dev/v1 names the gate',
          { apiVersion: 'apps.ordinal.dev/v1', 'spec.updateStrategy': { type: 'Recreate' } },
          [`spec.updateStrategy.type: Forbidden: ${RECREATE_GATED}`],
        ],
        ['RollingUpdate is unaffected', {}, []],
      ],
      gates({ StatefulSetRecreateStrategy: false }),
    );
  });
});
