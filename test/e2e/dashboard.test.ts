// `kubectl ordinal dashboard` on a real kube-apiserver, with `ordinal controller` and the simulated kubelet, in
// headless Chromium (Debian's chromium through playwright-core, test/browser/chromium.ts): the page shows a
// staged rollout progressing and then paused at its step (the timeline drawing both revisions); Promote from
// the page — a dry run in the confirmation, then the plugin's patch — moves the rollout past its step to the
// end; a second dashboard on a kubeconfig whose user may only read shows the server's Forbidden for its
// action, and nothing is written; the forecast panel forecasts a proposed image. One namespace, one browser; screenshots of each state are written to
// ORDINAL_SCREENSHOT_DIR (default: a temporary directory, named in the test's output).
// Skipped without a control plane or Chromium, failed under CI without them.

import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { RolloutStep, StatefulSet } from '../../src/api/types.js';
import { INSTALL_HINT, findChromium, launchChromium } from '../browser/chromium.js';
import { closeSession } from './cluster-session.js';
import { startDashboardProcess, readOnlyKubeconfig, type DashboardProcess } from './dashboard-process.js';
import { e2eTest, twoReplicaSet, type TestEnv } from './harness.js';

afterAll(() => closeSession());

const chromiumPath = findChromium();
const skip = chromiumPath === undefined && !process.env.CI ? INSTALL_HINT : false;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Slow enough starts that the page sees the rollout under way, not only where it stops. */
const KUBELET = { podStartSeconds: 3, podTerminationSeconds: 1 };
const KEY = (env: TestEnv) => `${env.ns}/statefulset.apps.ordinal.dev/web`;

function stagedSet(env: TestEnv): StatefulSet {
  const set = twoReplicaSet(env, 'web');
  const steps: RolloutStep[] = [{ replicas: 1, pause: {} }, { partition: 0 }];
  return { ...set, spec: { ...set.spec, replicas: 3, podManagementPolicy: 'Parallel', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { steps } } } };
}

/** Opens the dashboard at the set, recording every state the page shows and every request and error it makes. */
async function openAt(context: BrowserContext, d: DashboardProcess, key: string): Promise<{ page: Page; states: () => Promise<string[]>; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => void (m.type() === 'error' && errors.push(`console: ${m.text()}`)));
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(`${d.url}#${encodeURIComponent(key)}`, { waitUntil: 'load' });
  await page.locator('#detail-state [data-state]').waitFor();
  await page.evaluate(RECORD_STATES);
  return { page, errors, states: () => page.evaluate<string[]>('window.seenStates') };
}

/** In the page (as a string: the tests are not compiled with the DOM's types): every state the detail shows, in order. */
const RECORD_STATES = `
  window.seenStates = [];
  const record = () => {
    const s = document.querySelector('#detail-state [data-state]')?.getAttribute('data-state');
    if (s && window.seenStates.at(-1) !== s) window.seenStates.push(s);
  };
  record();
  new MutationObserver(record).observe(document.getElementById('detail-state'), { childList: true, subtree: true });
`;

const state = (page: Page, kind: string) => page.locator(`#detail-state [data-state="${kind}"]`).waitFor({ timeout: 60_000 });

/** The revisions the timeline draws bars of. */
const drawnRevisions = (page: Page) =>
  page.evaluate<string[]>(`[...new Set([...document.querySelectorAll('#detail-timeline svg.timeline g.seg')].map((g) => g.getAttribute('data-revision')))].filter((r) => r)`);

describe('dashboard on kube-apiserver, in headless Chromium', { skip }, () => {
  e2eTest('shows a rollout progressing, promotes it from the page, and shows the server refusing a reader', { timeout: 240_000, kubelet: KUBELET }, async (env) => {
    if (chromiumPath === undefined) assert.fail(`${INSTALL_HINT} (CI is set: .ci/run installs it before npm test)`);
    const dir = mkdtempSync(join(tmpdir(), 'ordinal-dashboard-e2e-'));
    const shots = process.env.ORDINAL_SCREENSHOT_DIR ?? join(dir, 'screenshots');
    mkdirSync(shots, { recursive: true });
    env.note(`screenshots in ${shots}`);
    const shot = async (page: Page, name: string, fullPage = true) => {
      const path = join(shots, `${name}.png`);
      await page.screenshot({ path, fullPage });
      assert.deepEqual(readFileSync(path).subarray(0, 8), PNG, path);
    };
    const [, readerConfig, context] = await Promise.all([
      env.createConverged(stagedSet(env)),
      readOnlyKubeconfig(env.cp.kubeconfigPath, env.ns, dir),
      launchChromium(chromiumPath, join(dir, 'profile')),
    ]);
    const [admin, reader] = await Promise.all([startDashboardProcess(env.cp.kubeconfigPath, env.ns), startDashboardProcess(readerConfig, env.ns)]);
    env.onClose(async () => {
      await context.close();
      await Promise.all([admin.stop(), reader.stop()]);
      rmSync(join(dir, 'profile'), { recursive: true, force: true });
    });
    const requests: string[] = [];
    context.on('request', (r) => requests.push(r.url()));

    // converged, then a new image: the page follows the rollout until it waits at step 1/2 to be promoted
    const a = await openAt(context, admin, KEY(env));
    await state(a.page, 'done');
    await shot(a.page, '1-converged');
    await env.setImage('web', 'app', 'app:2');
    await state(a.page, 'progressing');
    await a.page.locator('#detail-step', { hasText: /^step 1\/2/ }).waitFor();
    await shot(a.page, '2-progressing');
    await state(a.page, 'paused');
    await a.page.locator('#detail-message', { hasText: 'step 1/2: paused until promoted' }).waitFor();
    assert.equal((await drawnRevisions(a.page)).length, 2, 'the timeline draws the old and the new revision');
    assert.match((await a.page.locator('table.sets').innerText()).replace(/\s+/g, ' '), /web apps\.ordinal\.dev\/v1 paused at step 1\/3 updated/);

    // Promote: the confirmation shows the server's dry run; Confirm sends the plugin's patch; the step moves
    await a.page.click('#actions button[data-verb="promote"]:not([data-full])');
    await a.page.locator('#confirm-dry-run.ok', { hasText: 'statefulset.apps.ordinal.dev/web promoted past step 1/2 (server dry run)' }).waitFor();
    await shot(a.page, '3-confirm-promote', false);
    assert.equal((await env.client.get<StatefulSet>(env.res, env.ns, 'web')).status?.currentStepIndex, 0, 'the dry run moved nothing');
    await a.page.click('#confirm-ok');
    await a.page.locator('.answer-ok pre', { hasText: 'statefulset.apps.ordinal.dev/web promoted past step 1/2' }).waitFor();
    await env.waitForSet('web', 'the promote to move the step', 60_000, (s) => (s.status?.currentStepIndex ?? 0) >= 1 || `step ${s.status?.currentStepIndex}`);
    // step 2/2 under way: the ETA of rollout status's forecast (asked when the rollout started), with its band
    await a.page.locator('#detail-eta', { hasText: /^ETA: (at most )?about \S+ left \(p5 \S+ – p95 \S+\)/ }).waitFor({ timeout: 30_000 });
    await shot(a.page, '4-promoted-eta');
    await state(a.page, 'done');
    await shot(a.page, '5-done');

    // the forecast panel: a proposed image, forecast by the forecast command from this set's pod timings
    await a.page.fill('#forecast-image', 'app:3');
    const started = Date.now();
    await a.page.click('#forecast-run');
    const forecast = a.page.locator('#forecast-answer', { hasText: /SETTING\s+RUNS\s+P5\s+P50\s+P95/ });
    await forecast.waitFor({ timeout: 120_000 });
    env.note(`the forecast panel answered in ${Date.now() - started} ms`);
    assert.match(await forecast.innerText(), /^kubectl ordinal forecast statefulset\.apps\.ordinal\.dev\/web -n \S+ --image app=app:3\n\nForecast for statefulset\.apps\.ordinal\.dev\/web: image app=app:3\n/);
    await forecast.scrollIntoViewIfNeeded();
    await shot(a.page, '6-forecast', false);
    const seen = await a.states();
    assert.deepEqual(seen.filter((s, i) => seen.indexOf(s) === i), ['done', 'progressing', 'paused'], `states the page showed: ${seen.join(' → ')}`);
    assert.match(admin.output(), /kubectl ordinal rollout promote statefulset\.apps\.ordinal\.dev\/web -n \S+: exit 0\n/);

    // the reader's dashboard: the same page; its Pause is refused by the server, with the server's message
    const r = await openAt(context, reader, KEY(env));
    await state(r.page, 'done');
    await r.page.click('#actions button[data-verb="pause"]');
    await r.page.locator('#confirm-dry-run.bad', { hasText: 'Error from server (Forbidden)' }).waitFor();
    await r.page.click('#confirm-ok');
    const refusal = r.page.locator('.answer-bad pre');
    await refusal.waitFor();
    assert.match(await refusal.innerText(), new RegExp(`^Error from server \\(Forbidden\\): statefulsets\\.apps\\.ordinal\\.dev "web" is forbidden: User "system:serviceaccount:${env.ns}:reader" cannot patch resource "statefulsets" in API group "apps\\.ordinal\\.dev" in the namespace "${env.ns}"$`));
    await shot(r.page, '7-reader-forbidden');
    assert.equal((await env.client.get<StatefulSet>(env.res, env.ns, 'web')).spec.updateStrategy?.rollingUpdate?.paused, undefined, 'nothing was written');

    // everything came from the two dashboards (or is inline data), without an error on either page
    const origins = [new URL(admin.url).origin, new URL(reader.url).origin];
    assert.deepEqual(requests.filter((u) => !u.startsWith('data:') && !origins.some((o) => u.startsWith(`${o}/`))), []);
    assert.deepEqual([...a.errors, ...r.errors], []);
    assert.deepEqual(await Promise.all([admin.stop(), reader.stop()]), [0, 0], 'SIGTERM stops each with exit 0');
  });
});
