// The dashboard's HTTP routes on the simulated cluster (the real controller, kubelet and API server of the
// simulator, on virtual time): the page and its policy, the guard (Host, token, Origin), strict bodies, the
// view and its stream, and the actions — which run the plugin's own commands, so they send exactly the
// plugin's patches and answer with its lines, a refused write with the server's message.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Resources, type ClusterClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { promotePatch } from '../../src/api/rollout-signals.js';
import { PromoteAnnotation, type StatefulSet } from '../../src/api/types.js';
import { DASHBOARD_SCRIPT } from '../../src/cli/dashboard/dashboard-script.js';
import { action, send, startDashboard, streamUntil, TOKEN, type DashboardWorld } from './dashboard-world.js';
import { advance, converge, setYaml, type TestWorld } from './world.js';

const RES = Resources.ordinalStatefulSets;
const KEY = 'default/statefulset.apps.ordinal.dev/web';
const SET = 'statefulset.apps.ordinal.dev/web';
const staged = setYaml({ apiVersion: 'apps.ordinal.dev/v1', spec: '      updateStrategy: {type: RollingUpdate, rollingUpdate: {steps: [{replicas: 1, pause: {}}, {partition: 0}]}}\n' });
const image = (i: string) => ({ spec: { template: { spec: { containers: [{ name: 'app', image: i }] } } } });
const stored = (w: TestWorld) => w.sim.world.user.get<StatefulSet>(RES, 'default', 'web');

/** The converged staged set, then a new image: the rollout waits at step 1/2 to be promoted. */
async function atFirstStep(w: TestWorld): Promise<void> {
  assert.ok(await converge(w));
  await w.sim.world.user.patch(RES, 'default', 'web', image('app:2'));
  await advance(w, 30);
  assert.equal((await stored(w)).status?.currentStepState, 'Paused');
}

describe('dashboard routes', () => {
  let d: DashboardWorld;
  before(async () => {
    d = await startDashboard(`${staged}${setYaml({ name: 'plain' })}`, { ready: atFirstStep });
  });
  after(() => d.close());

  it('serves the page with its one script allowed by hash, no framing, and nothing to load from elsewhere', async () => {
    const page = await send(d, { path: '/' });
    assert.equal(page.status, 200);
    assert.match(page.headers['content-type'] ?? '', /^text\/html/);
    const hash = createHash('sha256').update(DASHBOARD_SCRIPT).digest('base64');
    const csp = String(page.headers['content-security-policy']);
    assert.ok(csp.includes(`script-src 'sha256-${hash}'`), csp);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /connect-src 'self'/);
    assert.equal(page.headers['x-frame-options'], 'DENY');
    assert.ok(page.body.includes(`<script>${DASHBOARD_SCRIPT}</script>`));
    assert.ok(page.body.includes(`<meta name="ordinal-dashboard-token" content="${TOKEN}">`));
    assert.deepEqual(page.body.match(/(src|href)="(?!#|data:)[^"]*"/g) ?? [], [], 'no asset to fetch');
    assert.match(page.body, /context <code>in-memory<\/code>, namespace <code>default<\/code>/);
  });

  it('answers no request whose Host is another name for it (DNS rebinding)', async () => {
    const r = await send(d, { path: '/api/view', headers: { host: `evil.example:${d.port}` } });
    assert.equal(r.status, 403);
    assert.match(r.json<{ error: string }>().error, /unexpected Host header "evil\.example:\d+"/);
    assert.equal((await send(d, { path: '/', headers: { host: `localhost:${d.port}` } })).status, 200);
  });

  it('takes a write only with the page\'s token, from its own origin, as JSON', async () => {
    const body = JSON.stringify({ namespace: 'default', set: SET, verb: 'pause', dryRun: true });
    const host = `127.0.0.1:${d.port}`;
    const post = (headers: Record<string, string>) => send(d, { method: 'POST', path: '/api/action', headers: { host, ...headers }, body });
    const noToken = await post({ 'content-type': 'application/json' });
    assert.equal(noToken.status, 403);
    assert.match(noToken.json<{ error: string }>().error, /missing or wrong dashboard token/);
    assert.equal((await post({ 'content-type': 'application/json', 'x-ordinal-dashboard-token': 'guess' })).status, 403);
    const foreign = await post({ 'content-type': 'application/json', 'x-ordinal-dashboard-token': TOKEN, origin: 'http://evil.example' });
    assert.equal(foreign.status, 403);
    assert.match(foreign.json<{ error: string }>().error, /cross-origin request from http:\/\/evil\.example refused/);
    assert.equal((await post({ 'content-type': 'text/plain', 'x-ordinal-dashboard-token': TOKEN })).status, 415);
    assert.equal((await post({ 'content-type': 'application/json', 'x-ordinal-dashboard-token': TOKEN })).status, 200);
  });

  it('refuses a body with an unknown field, a wrong type or a namespace it does not watch, naming the field', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ namespace: 'default', set: SET, verb: 'pause', dryRun: true, force: true }, /^body\.force: unknown field$/],
      [{ namespace: 'default', set: SET, verb: 'delete', dryRun: true }, /^body\.verb: must be one of pause, resume, promote, abort, retry, undo, restart$/],
      [{ namespace: 'default', set: SET, verb: 'pause' }, /^body\.dryRun: required$/],
      [{ namespace: 'default', set: SET, verb: 'undo', dryRun: 'yes' }, /^body\.dryRun: must be true or false$/],
      [{ namespace: 'default', set: SET, verb: 'pause', dryRun: true, full: true }, /^body\.full: only for promote$/],
      [{ namespace: 'kube-system', set: SET, verb: 'pause', dryRun: true }, /^body\.namespace: the dashboard watches default, not kube-system$/],
    ];
    for (const [body, message] of cases) {
      const r = await action(d, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(r.json<{ error: string }>().error, message);
    }
    assert.equal((await send(d, { method: 'POST', path: '/api/action', body: '{' })).status, 400);
    assert.equal((await send(d, { path: '/nope' })).status, 404);
    assert.equal((await send(d, { method: 'POST', path: '/api/view', body: {} })).status, 405);
  });

  it('gives every set with its rollout state, and the selected one\'s step, timeline, why, plan and events', async () => {
    const view = (await send(d, { path: `/api/view?set=${encodeURIComponent(KEY)}` })).json<{ sets: string; detail: Record<string, string> }>();
    assert.match(view.sets, /data-key="default\/statefulset\.apps\/plain"[^]*data-state="done"/);
    assert.match(view.sets, /data-key="default\/statefulset\.apps\.ordinal\.dev\/web" class="selected"[^]*data-state="paused"/);
    const detail = view.detail;
    assert.equal(detail['set'], SET);
    assert.equal(detail['message'], 'step 1/2: paused until promoted (kubectl ordinal rollout promote web)');
    assert.match(detail['step'] ?? '', /^step 1\/2 \(replicas 1, partition 2\): paused until promoted/);
    for (const ordinal of [0, 1, 2]) assert.match(detail['timeline'] ?? '', new RegExp(`data-pod="web-${ordinal}"`));
    assert.match(detail['timeline'] ?? '', />rollout steps</);
    assert.match(detail['why'] ?? '', /Rolling out revision web-\w+: 1 of 3 pods updated/);
    assert.match(detail['plan'] ?? '', /next sync \(dry run, nothing was changed\)/);
    assert.match(detail['events'] ?? '', /RolloutPaused/);
    assert.deepEqual(detail['containers'], ['app']);
    const gone = (await send(d, { path: '/api/view?set=default%2Fstatefulset.apps%2Fnope' })).json<{ detail: unknown }>();
    assert.deepEqual(gone.detail, { key: 'default/statefulset.apps/nope', gone: true });
  });

  it('promote: the dry run stores nothing; then the plugin\'s patch, its line, and the step moves', async () => {
    const before = await stored(d);
    const dry = (await action(d, { namespace: 'default', set: SET, verb: 'promote', dryRun: true })).json<{ exitCode: number; stdout: string; command: string }>();
    assert.deepEqual(dry, { command: `kubectl ordinal rollout promote ${SET} -n default --dry-run=server`, exitCode: 0, stdout: `${SET} promoted past step 1/2 (server dry run)\n`, stderr: '' });
    assert.equal((await stored(d)).metadata.annotations?.[PromoteAnnotation], undefined);
    const done = (await action(d, { namespace: 'default', set: SET, verb: 'promote', dryRun: false })).json<{ exitCode: number; stdout: string }>();
    assert.equal(done.exitCode, 0);
    assert.equal(done.stdout, `${SET} promoted past step 1/2\n`);
    const want = promotePatch(before.status, false) as { metadata: { annotations: Record<string, string> } };
    assert.equal((await stored(d)).metadata.annotations?.[PromoteAnnotation], want.metadata.annotations[PromoteAnnotation]);
    const events = await streamUntil(d, KEY, (e) => e.type === 'view' && (e.data['detail'] as Record<string, string>)['step']?.startsWith('step 2/2') === true);
    assert.match((events.at(-1)?.data['detail'] as Record<string, string>)['step'] ?? '', /^step 2\/2 \(partition 0\)/);
  });

  it('forecasts a proposed image with the forecast command, one at a time; a malformed one exits 2', async () => {
    const bad = (await send(d, { method: 'POST', path: '/api/forecast', body: { namespace: 'default', set: 'statefulset.apps/plain', images: ['app'] } })).json<{ exitCode: number; stderr: string }>();
    assert.deepEqual(bad, { command: 'kubectl ordinal forecast statefulset.apps/plain -n default --image app', exitCode: 2, stdout: '', stderr: 'error: --image wants NAME=VALUE, got "app"\n' });
    const ask = () => send(d, { method: 'POST', path: '/api/forecast', body: { namespace: 'default', set: 'statefulset.apps/plain', images: ['app=app:3'], runs: 2 } });
    const answers = await Promise.all([ask(), ask()]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409]);
    const ok = answers.find((a) => a.status === 200)?.json<{ exitCode: number; stdout: string }>();
    assert.equal(ok?.exitCode, 0);
    assert.match(ok?.stdout ?? '', /^Forecast for statefulset\.apps\/plain: image app=app:3\n2 simulated runs per setting/);
    assert.match(answers.find((a) => a.status === 409)?.json<{ error: string }>().error ?? '', /a forecast is running already/);
    const empty = await send(d, { method: 'POST', path: '/api/forecast', body: { namespace: 'default', set: 'statefulset.apps/plain' } });
    assert.equal(empty.status, 400);
  });

  it('a command that refuses answers with its own line and exit code 1', async () => {
    const r = (await action(d, { namespace: 'default', set: 'statefulset.apps/plain', verb: 'promote', dryRun: true })).json<{ exitCode: number; stderr: string }>();
    assert.equal(r.exitCode, 1);
    assert.equal(r.stderr, 'error: statefulset.apps/plain has no step to promote: it has no steps to promote (spec.updateStrategy.rollingUpdate.steps)\n');
  });
});

describe('dashboard actions refused by the server', () => {
  it('show the server\'s message (Forbidden), and nothing is written', async () => {
    const forbidden = (w: TestWorld): ClusterClient =>
      new Proxy(w.sim.world.user, {
        get(target, prop, receiver) {
          if (prop !== 'patch') return Reflect.get(target, prop, receiver) as unknown;
          return () => Promise.reject(new ApiError('statefulsets.apps.ordinal.dev "web" is forbidden: User "reader" cannot patch resource "statefulsets" in API group "apps.ordinal.dev" in the namespace "default"', 403, 'Forbidden'));
        },
      });
    const d = await startDashboard(staged, { ready: atFirstStep, client: forbidden });
    try {
      const r = (await action(d, { namespace: 'default', set: SET, verb: 'pause', dryRun: false })).json<{ exitCode: number; stderr: string }>();
      assert.equal(r.exitCode, 1);
      assert.equal(r.stderr, 'Error from server (Forbidden): statefulsets.apps.ordinal.dev "web" is forbidden: User "reader" cannot patch resource "statefulsets" in API group "apps.ordinal.dev" in the namespace "default"\n');
      assert.equal((await stored(d)).spec.updateStrategy?.rollingUpdate?.paused, undefined);
    } finally {
      await d.close();
    }
  });
});
