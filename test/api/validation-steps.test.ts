// rollingUpdate.paused and steps (validation/rollout-steps.ts): Forbidden in apps/v1; in apps.ordinal.dev/v1
// every field checked with its path and message, in both rolling blocks.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EXTENSION_ONLY } from '../../src/api/validation/index.js';
import { createMessages, validOrdinalSet, validSet } from './fixtures.js';

type Row = [name: string, fields: Record<string, unknown>, want: string[]];
const RU = 'spec.updateStrategy.rollingUpdate';
const S = `${RU}.steps`;
const ENF = 'spec.updateStrategy.enforcedRollingUpdate';
const steps = (...list: unknown[]): Record<string, unknown> => ({ [S]: list });
const at = (step: Record<string, unknown>): Record<string, unknown> => steps({ replicas: 1, ...step });
const http = (fields: Record<string, unknown>): Record<string, unknown> => at({ analysis: { http: { url: 'http://canary.example/health', ...fields } } });
const DURATION = 'must be a duration such as 30s, 10m or 1h30m';

describe('validateStatefulSet: paused and steps in apps/v1 are Forbidden', () => {
  const rows: Row[] = [
    ['paused', { [`${RU}.paused`]: true }, [`${RU}.paused: Forbidden: ${EXTENSION_ONLY}`]],
    ['paused false', { [`${RU}.paused`]: false }, [`${RU}.paused: Forbidden: ${EXTENSION_ONLY}`]],
    ['steps', steps({ replicas: 1 }), [`${S}: Forbidden: ${EXTENSION_ONLY}`]],
  ];
  for (const [name, fields, want] of rows) it(name, () => assert.deepEqual(createMessages(fields, validSet()), want));
});

describe('validateStatefulSet: paused and steps in apps.ordinal.dev/v1', () => {
  const rows: Row[] = [
    ['paused', { [`${RU}.paused`]: true }, []],
    ['paused not a boolean', { [`${RU}.paused`]: 'yes' }, [`${RU}.paused: Invalid value: "yes": must be of type boolean`]],
    [
      'a staged rollout with every kind of step',
      steps(
        { replicas: 1, pause: { duration: '10m' } },
        { replicas: '25%', analysis: { http: { url: 'https://canary.example/health', expectedStatus: 204, interval: '30s', count: 3, failureLimit: 1, timeout: '2s' } } },
        { partition: 2, analysis: { readiness: { duration: '1h30m', failureLimit: 0 } } },
        { replicas: '50%', pause: {} },
        { replicas: '100%' },
      ),
      [],
    ],
    ['no steps', steps(), []],
    ['steps not a list', { [S]: { replicas: 1 } }, [`${S}: Invalid value: {"replicas":1}: must be of type array`]],
    ['33 steps', { [S]: Array.from({ length: 33 }, () => ({ replicas: 1 })) }, [`${S}: Too many: 33: must have at most 32 items`]],
    ['a step not an object', steps(1), [`${S}[0]: Invalid value: 1: must be of type object`]],
    ['a step without partition or replicas', steps({ pause: {} }), [`${S}[0]: Invalid value: {"pause":{}}: exactly one of partition and replicas`]],
    ['a step with partition and replicas', steps({ partition: 1, replicas: 1 }), [`${S}[0]: Invalid value: {"partition":1,"replicas":1}: exactly one of partition and replicas`]],
    ['partition negative', steps({ partition: -1 }), [`${S}[0].partition: Invalid value: -1: must be greater than or equal to 0`]],
    ['partition not an integer', steps({ partition: 'one' }), [`${S}[0].partition: Invalid value: "one": must be of type integer`]],
    ['replicas negative', steps({ replicas: -1 }), [`${S}[0].replicas: Invalid value: -1: must be greater than or equal to 0`]],
    ['replicas 0', steps({ replicas: 0 }), []],
    ['replicas 0%', steps({ replicas: '0%' }), []],
    ['replicas above 100%', steps({ replicas: '101%' }), [`${S}[0].replicas: Invalid value: "101%": must not be greater than 100%`]],
    [
      'replicas a string without %',
      steps({ replicas: '5' }),
      [`${S}[0].replicas: Invalid value: "5": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`],
    ],
    ['a step with a pause and an analysis', at({ pause: {}, analysis: { readiness: { duration: '1m' } } }), [`${S}[0]: Invalid value: {"replicas":1,"pause":{},"analysis":{"readiness":{"duration":"1m"}}}: a step waits for a pause or an analysis, not both`]],
    ['pause not an object', at({ pause: true }), [`${S}[0].pause: Invalid value: true: must be of type object`]],
    ['pause duration without a unit', at({ pause: { duration: '10' } }), [`${S}[0].pause.duration: Invalid value: "10": ${DURATION}`]],
    ['pause duration 0s', at({ pause: { duration: '0s' } }), [`${S}[0].pause.duration: Invalid value: "0s": must be greater than 0`]],
    ['pause duration negative', at({ pause: { duration: '-5s' } }), [`${S}[0].pause.duration: Invalid value: "-5s": ${DURATION}`]],
    ['pause duration in microseconds', at({ pause: { duration: '500us' } }), [`${S}[0].pause.duration: Invalid value: "500us": ${DURATION}`]],
    ['pause duration not a string', at({ pause: { duration: 30 } }), [`${S}[0].pause.duration: Invalid value: 30: must be of type string`]],
    ['pause duration 1.5h', at({ pause: { duration: '1.5h' } }), []],
    ['analysis with neither check', at({ analysis: {} }), [`${S}[0].analysis: Invalid value: {}: exactly one of http, prometheus and readiness`]],
    [
      'analysis with both checks',
      at({ analysis: { http: { url: 'http://a.example' }, readiness: { duration: '1m' } } }),
      [`${S}[0].analysis: Invalid value: {"http":{"url":"http://a.example"},"readiness":{"duration":"1m"}}: exactly one of http, prometheus and readiness`],
    ],
    ['http without url', at({ analysis: { http: {} } }), [`${S}[0].analysis.http.url: Required value`]],
    ['http url of another scheme', http({ url: 'ftp://a.example/x' }), [`${S}[0].analysis.http.url: Invalid value: "ftp://a.example/x": must be an http:// or https:// URL`]],
    ['http url without a host', http({ url: 'http://' }), [`${S}[0].analysis.http.url: Invalid value: "http://": must be an http:// or https:// URL`]],
    ['http expectedStatus 99', http({ expectedStatus: 99 }), [`${S}[0].analysis.http.expectedStatus: Invalid value: 99: must be an HTTP status code (100-599)`]],
    ['http expectedStatus 600', http({ expectedStatus: 600 }), [`${S}[0].analysis.http.expectedStatus: Invalid value: 600: must be an HTTP status code (100-599)`]],
    ['http interval invalid', http({ interval: 'soon' }), [`${S}[0].analysis.http.interval: Invalid value: "soon": ${DURATION}`]],
    ['http timeout 0s', http({ timeout: '0s' }), [`${S}[0].analysis.http.timeout: Invalid value: "0s": must be greater than 0`]],
    ['http count 0', http({ count: 0 }), [`${S}[0].analysis.http.count: Invalid value: 0: must be greater than or equal to 1`]],
    ['http failureLimit negative', http({ failureLimit: -1 }), [`${S}[0].analysis.http.failureLimit: Invalid value: -1: must be greater than or equal to 0`]],
    ['readiness without duration', at({ analysis: { readiness: {} } }), [`${S}[0].analysis.readiness.duration: Required value`]],
    ['readiness duration invalid', at({ analysis: { readiness: { duration: '1d' } } }), [`${S}[0].analysis.readiness.duration: Invalid value: "1d": ${DURATION}`]],
    ['readiness failureLimit negative', at({ analysis: { readiness: { duration: '1m', failureLimit: -2 } } }), [`${S}[0].analysis.readiness.failureLimit: Invalid value: -2: must be greater than or equal to 0`]],
    ['the index of the step at fault', steps({ replicas: 1 }, { replicas: 2 }, { partition: -1 }), [`${S}[2].partition: Invalid value: -1: must be greater than or equal to 0`]],
    [
      'EnforcedRollingUpdate: paused and steps in its block',
      { 'spec.updateStrategy': { type: 'EnforcedRollingUpdate', enforcedRollingUpdate: { paused: true, steps: [{ replicas: 1, pause: {} }] } } },
      [],
    ],
    [
      'EnforcedRollingUpdate: the path names its block',
      { 'spec.updateStrategy': { type: 'EnforcedRollingUpdate', enforcedRollingUpdate: { paused: 1, steps: [{ replicas: '200%' }] } } },
      [`${ENF}.paused: Invalid value: 1: must be of type boolean`, `${ENF}.steps[0].replicas: Invalid value: "200%": must not be greater than 100%`],
    ],
  ];
  for (const [name, fields, want] of rows) it(name, () => assert.deepEqual(createMessages(fields, validOrdinalSet()), want));
});
