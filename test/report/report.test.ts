import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { renderReport } from '../../src/report/index.js';
import { buildModel } from '../../src/report/model.js';
import { formatSeconds, formatTick, tickStep, timeScale } from '../../src/report/chart-layout.js';
import { renderStepLines, staggerLevels } from '../../src/report/step-labels.js';
import type { TimelineRecord } from '../../src/sim/timeline.js';
import { sampleTimeline } from './fixture-timeline.js';
import { readFileSync } from 'node:fs';
import { runScenario } from '../../src/sim/runner.js';
import { parseScenario } from '../../src/sim/scenario.js';

describe('report model', () => {
  it('makes one row per ordinal with state segments that end where the next state begins', () => {
    const model = buildModel(sampleTimeline(), 't');
    assert.deepEqual(
      model.rows.map((r) => r.label),
      ['web-0', 'web-1'],
    );
    const web1 = model.rows[1]!;
    assert.deepEqual(
      web1.segments.map((s) => [s.state, s.start, s.end, s.revision]),
      [
        ['Pending', 1, 2, 'web-rev-a'],
        ['Ready', 2, 2, 'web-rev-a'],
        ['Terminating', 2, 3, 'web-rev-a'],
        ['Pending', 3, 4, 'web-rev-b'],
        ['Ready', 4, 5, 'web-rev-b'],
      ].filter(([, start, end]) => (end as number) > (start as number)),
    );
  });

  it('orders revisions by first appearance and puts pod events on the pod row', () => {
    const model = buildModel(sampleTimeline(), 't');
    assert.deepEqual(model.revisions.get('default/web'), ['web-rev-a', 'web-rev-b']);
    assert.equal(model.rows[1]!.markers.length, 1);
    assert.equal(model.rows[1]!.markers[0]!.kind, 'warning');
    assert.equal(model.counters[0]!.points.length, 2);
  });
});

describe('claim expansions in the report (InPlace)', () => {
  it('draws each claim expansion on its replica\'s row, from Resizing to Resized, dashed while it waits for a pod restart', async () => {
    const text = readFileSync(new URL('../../examples/claim-offline-expansion.yaml', import.meta.url), 'utf8');
    const { records } = await runScenario(parseScenario(text, 'claim-offline-expansion.yaml'));
    const model = buildModel(records, 't');
    const db1 = model.rows.find((r) => r.label === 'db-1');
    assert.deepEqual(
      db1?.resizes.map((r) => [r.claim, r.from, r.to, r.outcome, r.end > r.pendingRestartAt! && r.pendingRestartAt! > r.start]),
      [['data-db-1', '10Gi', '20Gi', 'Resized', true]],
    );
    const svg = renderReport(records);
    assert.match(svg, /<g class="resize resize-resized" data-claim="data-db-1" data-outcome="Resized"><title>data-db-1 10Gi → 20Gi [^<]*waiting for a pod restart/);
    assert.equal((svg.match(/data-claim="/g) ?? []).length, 4, 'one expansion per claim of db and queue');
  });

  it('marks a failed expansion on the row and ends its bar there', () => {
    const claim = (t: number, event: string, capacity: string): TimelineRecord =>
      ({ t, type: 'claim', namespace: 'default', name: 'data-db-0', set: 'db', ordinal: 0, event, request: '2Gi', capacity }) as TimelineRecord;
    const model = buildModel([claim(1, 'Resizing', '1Gi'), claim(4, 'ResizeFailed', '1Gi')], 't');
    assert.deepEqual(model.rows[0]?.resizes.map((r) => [r.start, r.end, r.outcome]), [[1, 4, 'ResizeFailed']]);
    assert.equal(model.rows[0]?.markers[0]?.kind, 'warning');
  });
});

describe('renderReport', () => {
  it('produces a self-contained page with no network references', () => {
    const html = renderReport(sampleTimeline(), { title: 'sample' });
    assert.match(html, /^<!DOCTYPE html>/);
    assert.doesNotMatch(html, /\b(src|href)=["']?(https?:)?\/\//);
    assert.doesNotMatch(html, /<link\b/);
    assert.match(html, /<svg class="timeline"/);
    assert.match(html, /<svg class="counters"/);
  });

  it('escapes every piece of text from the timeline', () => {
    const records: TimelineRecord[] = [
      ...sampleTimeline().slice(0, -1),
      {
        t: 1,
        type: 'pod',
        namespace: 'default',
        name: '<script>alert(1)</script>',
        set: 'web"><img src=x onerror=alert(1)>',
        ordinal: 7,
        revision: '<b>rev</b>',
        event: 'Created',
      },
    ];
    const html = renderReport(records, { title: '<title>&' });
    assert.doesNotMatch(html, /<script>alert/);
    assert.doesNotMatch(html, /<img /);
    assert.doesNotMatch(html, /<b>rev/);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(html, /Back-off &lt;pulling&gt; image &quot;x&amp;y&quot;/);
    assert.match(html, /<title>&lt;title&gt;&amp;<\/title>/);
  });

  it('marks each timeline row with its set and ordinal and each bar with its state and revision', () => {
    const html = renderReport(sampleTimeline());
    const rows = [...html.matchAll(/<g class="row" data-group="([^"]*)" data-ordinal="(\d+)" data-pod="([^"]*)">/g)].map((m) => m.slice(1));
    assert.deepEqual(rows, [
      ['default/web', '0', 'web-0'],
      ['default/web', '1', 'web-1'],
    ]);
    const web1 = html.slice(html.indexOf('data-pod="web-1"'));
    const bars = [...web1.matchAll(/<g class="seg [^"]*" data-state="(\w+)" data-revision="([^"]*)">/g)].map((m) => `${m[1]}@${m[2]}`);
    assert.deepEqual(bars, ['Pending@web-rev-a', 'Terminating@web-rev-a', 'Pending@web-rev-b', 'Ready@web-rev-b']);
  });

  it('hatches Pending and Terminating bars in opposite directions so that adjacent ones stay apart', () => {
    const html = renderReport(sampleTimeline());
    const fills = (state: string) => [...html.matchAll(new RegExp(`data-state="${state}"[^]*?fill="url\\(#([\\w-]+)\\)"`, 'g'))].map((m) => m[1]);
    assert.deepEqual([...new Set(fills('Pending'))], ['hatch']);
    assert.deepEqual([...new Set(fills('Terminating'))], ['hatch-back']);
    assert.match(html, /<pattern id="hatch" [^>]*rotate\(45\)/);
    assert.match(html, /<pattern id="hatch-back" [^>]*rotate\(-45\)/);
  });

  it('leaves data-ordinal off rows of pods without a set and escapes the hooks', () => {
    const records: TimelineRecord[] = [
      { t: 0, type: 'pod', namespace: 'default', name: 'lone"pod', set: null, ordinal: null, revision: null, event: 'Created' },
      { t: 1, type: 'pod', namespace: 'default', name: 'lone"pod', set: null, ordinal: null, revision: null, event: 'Running' },
    ];
    const html = renderReport(records);
    assert.match(html, /<g class="row" data-group="default\/lone&quot;pod" data-pod="lone&quot;pod">/);
    assert.match(html, /data-state="Pending" data-revision="">/);
  });

  it('says when the run has no summary and still draws what it has', () => {
    const html = renderReport(sampleTimeline().slice(0, 5));
    assert.match(html, /No summary record/);
    assert.match(html, /web-0/);
  });
});

describe('step labels', () => {
  it('drops a label to the next free line only when it would overlap a label on the line above', () => {
    assert.deepEqual(
      staggerLevels([
        { x: 0, width: 20 },
        { x: 10, width: 20 },
        { x: 15, width: 20 },
        { x: 30, width: 10 },
        { x: 100, width: 10 },
      ]),
      [0, 1, 2, 0, 0],
    );
  });

  it('puts close steps on separate lines of the band under the rows, each label on its own plate', () => {
    const steps = [0, 10, 10, 10.5, 23].map((t, index) => ({ t, index, step: { advance: index } }));
    const { svg, height } = renderStepLines(steps, 100, timeScale(23));
    const labels = [...svg.matchAll(/<text x="[\d.]+" y="(\d+)" dx="2">([^<]*)<\/text>/g)].map((m) => [m[2], Number(m[1])]);
    assert.deepEqual(labels, [
      ['#0', 110],
      ['#1,2', 110],
      ['#3', 122],
      ['#4', 110],
    ]);
    assert.equal(height, 2 * 12 + 4);
    assert.equal(svg.match(/class="step-plate"/g)?.length, 4);
    assert.ok(svg.lastIndexOf('<line') < svg.indexOf('<rect'), 'every line is drawn before the first label plate');
    assert.deepEqual(renderStepLines([], 100, timeScale(23)), { svg: '', height: 0 });
  });
});

describe('time axis', () => {
  it('uses clock-friendly tick steps and labels them in the step\'s unit', () => {
    assert.equal(tickStep(8), 1);
    assert.equal(tickStep(100), 15);
    assert.equal(tickStep(3600), 600);
    assert.deepEqual(timeScale(4).ticks, [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4]);
    assert.deepEqual(timeScale(700).ticks.map((t) => formatTick(t, 120)), ['0m', '2m', '4m', '6m', '8m', '10m']);
    assert.equal(formatTick(5400, 1800), '90m');
    assert.equal(formatTick(5400, 3600), '1h30m');
    assert.equal(formatTick(45, 15), '45s');
  });

  it('prints every time and duration in one format, whatever its size', () => {
    const cases: Array<[number, string]> = [[0, '0s'], [0.5, '0.5s'], [45, '45s'], [105, '1m45s'], [180, '3m00s'], [90.5, '1m30.5s'], [605.25, '10m05s'], [3600, '1h00m00s'], [3661, '1h01m01s']];
    assert.deepEqual(cases.map(([t]) => formatSeconds(t)), cases.map(([, text]) => text));
  });
});
