// End-to-end: `ordinal simulate examples/blog-max-unavailable.yaml --report` writes a page that headless
// Chromium opens from file:// without console errors or network requests, draws one timeline row per
// ordinal with as many revision changes as the timeline records, and screenshots readably.
// Without Chromium the suite is skipped locally and fails in CI (process.env.CI).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { simulateCommand } from '../../src/cli/commands/simulate.js';
import { fromJsonl, type SummaryRecord, type TimelineRecord } from '../../src/sim/timeline.js';
import { INSTALL_HINT, findChromium, launchChromium } from './chromium.js';
import { historyFromPage, historyFromRecords, revisionChanges } from './timeline-rows.js';

const EXAMPLE = join(import.meta.dirname, '..', '..', 'examples', 'blog-max-unavailable.yaml');
const STUCK_EXAMPLE = join(import.meta.dirname, '..', '..', 'examples', 'stuck-rollout-rolling-update.yaml');
const SET = 'default/web';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const chromiumPath = findChromium();
const skip = chromiumPath === undefined && !process.env.CI ? INSTALL_HINT : false;

interface Loaded {
  dir: string;
  records: TimelineRecord[];
  url: string;
  page: Page;
  requests: string[];
  errors: string[];
}

async function simulateWithReport(dir: string): Promise<{ records: TimelineRecord[]; report: string }> {
  const out = join(dir, 'timeline.jsonl');
  const report = join(dir, 'report.html');
  let stderr = '';
  const io = { stdout: () => undefined, stderr: (t: string) => void (stderr += t) };
  const code = await simulateCommand(EXAMPLE, { format: 'jsonl', out, report }, io);
  assert.equal(code, 0, stderr);
  return { records: fromJsonl(readFileSync(out, 'utf8')), report };
}

/** Opens the page and records every request, console error and uncaught page error. */
async function openReport(context: BrowserContext, report: string): Promise<Omit<Loaded, 'dir' | 'records'>> {
  const requests: string[] = [];
  const errors: string[] = [];
  context.on('request', (r) => requests.push(r.url()));
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (m) => void (m.type() === 'error' && errors.push(`console: ${m.text()}`)));
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('websocket', (ws) => requests.push(ws.url()));
  const url = pathToFileURL(report).href;
  await page.goto(url, { waitUntil: 'load' });
  return { url, page, requests, errors };
}

describe('HTML report in headless Chromium', { skip, timeout: 180_000 }, () => {
  let context: BrowserContext | undefined;
  let profile: string | undefined;
  let loaded: Loaded;

  before(async () => {
    if (chromiumPath === undefined) assert.fail(`${INSTALL_HINT} (CI is set: .ci/run installs it before npm test)`);
    const dir = mkdtempSync(join(tmpdir(), 'ordinal-report-browser-'));
    const { records, report } = await simulateWithReport(dir);
    profile = mkdtempSync(join(tmpdir(), 'ordinal-chromium-profile-'));
    context = await launchChromium(chromiumPath, profile);
    loaded = { dir, records, ...(await openReport(context, report)) };
  });

  after(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('loads from file:// with no console errors and no request besides the page itself', async () => {
    await loaded.page.locator('svg.timeline').waitFor();
    assert.deepEqual(loaded.errors, []);
    assert.deepEqual(loaded.requests, [loaded.url]);
  });

  it('draws one timeline row per ordinal of the set, in ordinal order', async () => {
    const summary = loaded.records.find((r): r is SummaryRecord => r.type === 'summary');
    const replicas = summary?.sets.web?.replicas;
    assert.equal(replicas, 5);
    const rows = loaded.page.locator(`svg.timeline g.row[data-group="${SET}"]`);
    assert.equal(await rows.count(), replicas);
    const ordinals = await Promise.all((await rows.all()).map((row) => row.getAttribute('data-ordinal')));
    assert.deepEqual(ordinals, ['0', '1', '2', '3', '4']);
    const labels = await rows.locator('text.row-label').allTextContents();
    assert.deepEqual(labels, ['web-0', 'web-1', 'web-2', 'web-3', 'web-4']);
    assert.ok(await rows.first().isVisible());
  });

  it('shows, per ordinal, as many revision changes as the timeline records hold', async () => {
    const fromRecords = historyFromRecords(loaded.records, SET);
    const expected = revisionChanges(fromRecords);
    assert.deepEqual([...expected.keys()].sort(), [0, 1, 2, 3, 4]);
    for (const [ordinal, changes] of expected) assert.ok(changes >= 1, `web-${ordinal} never changed revision in the rollout`);
    const fromPage = await historyFromPage(loaded.page, SET);
    assert.deepEqual(fromPage, fromRecords);
    assert.deepEqual(revisionChanges(fromPage), expected);
  });

  it('explains the rollout: its duration, the steps in words, the events, and unavailable replicas against maxUnavailable', async () => {
    const rollouts = loaded.page.locator('h2:text-is("Rollouts") + table');
    assert.ok(await rollouts.isVisible());
    assert.match(await rollouts.innerText(), /default\/web\s+web-\w+\s+\S+\s+\d+(\.\d+)?s/);
    assert.match(await loaded.page.locator('h2:text-is("Steps") + table').innerText(), /image web\/\S+ → \S+/);
    assert.match(await loaded.page.locator('h2:text-is("Events") + table').innerText(), /SuccessfulCreate/);
    const budget = loaded.page.locator('svg.counters g.budget text');
    assert.match((await budget.textContent()) ?? '', /^maxUnavailable \d+$/);
    assert.ok(await loaded.page.locator('svg.counters polyline.unavailable').isVisible());
  });

  it('writes why a pod does not progress on its bar: the stuck example shows ImagePullBackOff on app-4', async () => {
    const report = join(loaded.dir, 'stuck.html');
    const io = { stdout: () => undefined, stderr: () => undefined };
    assert.equal(await simulateCommand(STUCK_EXAMPLE, { format: 'jsonl', out: join(loaded.dir, 'stuck.jsonl'), report }, io), 0);
    const page = await context!.newPage();
    await page.goto(pathToFileURL(report).href, { waitUntil: 'load' });
    const bar = page.locator('svg.timeline g.seg[data-reason="ImagePullBackOff"]');
    assert.ok((await bar.count()) >= 1);
    assert.equal(await bar.first().locator('text.seg-reason').textContent(), 'ImagePullBackOff');
    assert.ok(await bar.first().locator('text.seg-reason').isVisible());
    assert.match((await bar.first().locator('title').textContent()) ?? '', /^app-4 Pending \(ImagePullBackOff\)/);
    await page.screenshot({ path: join(loaded.dir, 'stuck.png'), fullPage: true });
    await page.close();
  });

  it('saves a PNG screenshot of the whole page in the test directory', async (t) => {
    const path = join(loaded.dir, 'screenshot.png');
    await loaded.page.screenshot({ path, fullPage: true });
    assert.ok(statSync(path).size > 10_000, 'screenshot is suspiciously small');
    assert.deepEqual(readFileSync(path).subarray(0, 8), PNG_SIGNATURE);
    t.diagnostic(`screenshot: ${path}`);
  });
});
