// docs/scenarios.md matches the scenario parser and the timeline: every key, step kind, expect key, fault,
// image behaviour, record type (with its fields) and pod event the code accepts or writes is documented.
// The lists come from the code, so a new key without documentation fails here.

import { describe, it } from 'node:test';
import { CLAIM_EVENTS } from '../../src/sim/claim-lifecycle.js';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { TOP_KEYS } from '../../src/sim/scenario.js';
import {
  API_ERROR_KEYS,
  CLUSTER_KEYS,
  CONFLICT_KEYS,
  CONTROLLER_KEYS,
  FAULT_KEYS,
  FAULT_VERBS,
  IMAGE_BEHAVIORS,
  IMAGE_KEYS,
  STORAGE_CLASS_KEYS,
  STORAGE_KEYS,
  WATCH_FAULT_KEYS,
} from '../../src/sim/scenario-cluster.js';
import {
  DELETE_KEYS,
  DELETE_POD_KEYS,
  ENDPOINT_KEYS,
  PATCH_KEYS,
  PROMOTE_KEYS,
  SET_IMAGE_KEYS,
  SIGNAL_KEYS,
  STEP_KEYS,
  STEP_OPTION_KEYS,
  WAIT_POD_KEYS,
  WAIT_SET_KEYS,
} from '../../src/sim/scenario-steps.js';
import { EVENT_EXPECT_KEYS, EXPECT_KEYS, POD_EXPECT_KEYS } from '../../src/sim/scenario-expect.js';
import * as tl from '../../src/sim/timeline.js';
import { EXPANSION_MODES } from '../../src/cluster/storage/storage-actor.js';
import { METRIC_KEYS, METRIC_TYPES } from '../../src/sim/scenario-metrics.js';

const doc = readFileSync(new URL('../../docs/scenarios.md', import.meta.url), 'utf8');

/** From a heading line (exact text) to the next heading of the same or a higher level. */
function section(heading: string): string {
  const level = heading.indexOf(' ');
  const lines = doc.split('\n');
  const start = lines.indexOf(heading);
  assert.ok(start >= 0, `docs/scenarios.md has a "${heading}" heading`);
  const end = lines.findIndex((l, i) => i > start && /^#+ /.test(l) && l.indexOf(' ') <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The table row of `name` (`| \`name\` | …`) in `text`. */
function row(text: string, name: string): string {
  const line = text.split('\n').find((l) => l.startsWith(`| \`${name}\``));
  assert.ok(line, `a table row for \`${name}\``);
  return line;
}

/** `name` appears as a word inside some inline code span of `text` (examples in code blocks do not count). */
function mentions(text: string, name: string): boolean {
  const word = new RegExp(`(^|[^\\w-])${name}([^\\w-]|$)`);
  const prose = text.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/`([^`\n]+)`/g)].some((m) => word.test(m[1] ?? ''));
}

function assertMentions(text: string, names: readonly string[], where: string): void {
  for (const name of names) assert.ok(mentions(text, name), `${where} documents \`${name}\``);
}

describe('docs/scenarios.md', () => {
  it('has a row for every top-level key', () => {
    const text = section('## Top-level keys');
    for (const key of TOP_KEYS) row(text, key);
  });

  it('documents every cluster key, image key and image behaviour', () => {
    const cluster = section('## `cluster`');
    for (const key of CLUSTER_KEYS) row(cluster, key);
    const images = section('### Image behaviours');
    for (const key of IMAGE_KEYS) row(images, key);
    for (const behavior of IMAGE_BEHAVIORS) row(images, behavior);
    const storage = section('### Storage');
    for (const key of STORAGE_KEYS) row(storage, key);
    for (const mode of EXPANSION_MODES) assert.ok(storage.includes(`| \`${mode}\``), `a row for expansion ${mode}`);
    assertMentions(storage, STORAGE_CLASS_KEYS, '### Storage');
    const metrics = section('### Metrics');
    for (const key of METRIC_KEYS) row(metrics, key);
    assertMentions(metrics, METRIC_TYPES, '### Metrics');
  });

  it('documents every fault with its fields', () => {
    const text = section('## `faults`');
    const fields: Record<(typeof FAULT_KEYS)[number], readonly string[]> = {
      apiErrors: [...API_ERROR_KEYS, ...FAULT_VERBS],
      conflicts: CONFLICT_KEYS,
      watch: WATCH_FAULT_KEYS,
    };
    for (const fault of FAULT_KEYS) assertMentions(row(text, fault), fields[fault], `faults.${fault}`);
  });

  it('documents every controller key', () => {
    const text = section('## `controller`');
    for (const key of CONTROLLER_KEYS) row(text, key);
  });

  it('documents every step kind, each in its own section with its fields', () => {
    const steps = section('## Steps');
    const fields: Partial<Record<(typeof STEP_KEYS)[number], readonly string[]>> = {
      waitFor: [...WAIT_POD_KEYS, ...WAIT_SET_KEYS],
      patch: PATCH_KEYS,
      delete: DELETE_KEYS,
      setImage: SET_IMAGE_KEYS,
      deletePod: DELETE_POD_KEYS,
      endpoint: ENDPOINT_KEYS,
      pause: SIGNAL_KEYS,
      resume: SIGNAL_KEYS,
      promote: PROMOTE_KEYS,
      abort: SIGNAL_KEYS,
      retry: SIGNAL_KEYS,
    };
    for (const kind of STEP_KEYS) {
      row(steps, kind);
      const own = section(`### \`${kind}\``);
      assertMentions(own, [...(STEP_OPTION_KEYS[kind] ?? []), ...(fields[kind] ?? [])], `step ${kind}`);
    }
  });

  it('documents every expect key, pod field and event field', () => {
    const text = section('## `expect`');
    for (const key of [...EXPECT_KEYS, ...POD_EXPECT_KEYS, ...EVENT_EXPECT_KEYS]) row(text, key);
  });

  it('documents every timeline record type with every field the code writes, and every pod event', () => {
    const samples: tl.TimelineRecord[] = [
      tl.stepRecord(0, 0, {}),
      tl.podRecord(0, { namespace: '', name: '', set: null, ordinal: null, revision: null, event: 'Created' }),
      tl.waitingRecord(0, { namespace: '', name: '', set: null, ordinal: null, revision: null, reason: '', message: '' }),
      tl.claimRecord(0, { namespace: '', name: '', set: null, ordinal: null, event: 'Created', request: null, capacity: null }),
      tl.statusRecord(0, '', '', null, { replicas: 0 }),
      tl.eventRecord(0, { namespace: '', involvedObject: { kind: '', name: '' }, eventType: '', reason: '', message: '' }),
      tl.actionRecord(0, { namespace: '', set: null, verb: 'create', resource: '', name: '' }),
      tl.analysisRecord(0, { namespace: '', set: '', revision: '', step: 0, url: '', ok: true, message: '' }),
      tl.analysisRecord(0, { namespace: '', set: '', revision: '', step: 0, query: '', baselineQuery: '', ok: false, inconclusive: 'noData', message: '' }),
      tl.expectRecord(0, 0, true, ''),
      tl.failureRecord(0, 0, ''),
      tl.violationRecord({ t: 0, invariant: '', message: '' }),
      tl.summaryRecord({ converged: true, convergedAt: null, endedAt: 0, sets: {}, metrics: {}, violations: [], rollouts: [] }),
    ];
    assert.deepEqual([...new Set(samples.map((r) => r.type))].sort(), [...tl.RECORD_TYPES].sort(), 'a sample of every record type');
    const text = section('## Timeline records');
    assertMentions(text, ['t', 'type'], 'the records section');
    for (const record of samples) {
      const fields = Object.keys(record).filter((k) => k !== 't' && k !== 'type');
      assertMentions(row(text, record.type), fields, `record ${record.type}`);
    }
    assertMentions(text, tl.POD_EVENTS, 'the pod events');
    assertMentions(text, CLAIM_EVENTS, 'the claim events');
  });
});
