import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { renderReport } from '../../src/report/index.js';
import { buildModel } from '../../src/report/model.js';
import { formatTick, tickStep, timeScale } from '../../src/report/scale.js';
import type { TimelineRecord } from '../../src/sim/timeline.js';
import { sampleTimeline } from './fixture-timeline.js';

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

  it('says when the run has no summary and still draws what it has', () => {
    const html = renderReport(sampleTimeline().slice(0, 5));
    assert.match(html, /No summary record/);
    assert.match(html, /web-0/);
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
});
