// The Grafana dashboard and the alert rules read only metrics the controller serves: each query's metric
// names are checked against a scrape of /metrics of `ordinal controller`'s run loop (leading, on the fake API
// server); every metric family of Ordinal's own is on some panel; and the JSON is a dashboard Grafana loads
// (unique ids, panels on the grid, every variable a query uses defined). test/e2e/kube-controller.test.ts
// checks the same names against a controller reconciling a set on kube-apiserver.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Lease } from '../../src/api/types.js';
import { parseControllerFlags } from '../../src/cli/controller/controller-options.js';
import { runController } from '../../src/cli/controller/run.js';
import { ALERTS } from '../../src/cli/manifests/alert-rules.js';
import { dashboardQueries, grafanaDashboard } from '../../src/cli/manifests/grafana-dashboard.js';
import { openWatch, sendJson, sendStatus, startFakeApiServer, type FakeApiServer } from '../kube/fake-apiserver.js';
import { isServed, metricNames, scrapedFamilies } from './promql-names.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const dashboard = grafanaDashboard('0.0.0-test');
type Json = Record<string, unknown>;

describe('metricNames', () => {
  it('finds the metrics of an expression, not its functions, labels, strings or ranges', () => {
    assert.deepEqual(metricNames('histogram_quantile(0.9, sum by (le, strategy) (rate(a_bucket{job=~"$job",x="y z"}[$__rate_interval]))) / b and on (job, instance) c'), ['a_bucket', 'b', 'c']);
    assert.deepEqual(metricNames('label_values(d{job=~"$job"}, statefulset_name)'), ['d']);
  });
});

/** A scrape of a running controller's /metrics (leader election on, so the Lease gauge is served). */
async function scrapeController(api: FakeApiServer): Promise<string> {
  let lease: Lease | undefined;
  api.handle((req, res) => {
    if (req.path.includes('/leases')) {
      if (req.method === 'GET') return lease ? sendJson(res, 200, lease) : sendStatus(res, 404, 'NotFound', 'no lease');
      lease = { ...(JSON.parse(req.body) as Lease), metadata: { ...(JSON.parse(req.body) as Lease).metadata, resourceVersion: '2' } };
      return sendJson(res, req.method === 'POST' ? 201 : 200, lease);
    }
    if (req.method === 'GET' && req.query.get('watch') === '1') return void openWatch(res);
    if (req.method === 'GET') return sendJson(res, 200, { metadata: { resourceVersion: '1' }, items: [] });
    sendStatus(res, 405, 'MethodNotAllowed', 'unexpected');
  });
  const config = parseControllerFlags(
    { kubeconfig: api.kubeconfig, leaderElect: true, leaderElectNamespace: 'ops', metricsBindAddress: '127.0.0.1:0', healthProbeBindAddress: '0', gracefulShutdownTimeout: '5s' },
    { fileExists: () => true },
  );
  const running = await runController(config, { onSignal: () => {}, hostname: 'unit', forceExit: () => assert.fail('forced exit'), logWrite: () => {}, version: '0.0.0-test' });
  try {
    let text = '';
    for (let i = 0; i < 200 && !/^leader_election_master_status\{name="ordinal-controller"\} 1$/m.test(text); i++) {
      text = await (await fetch(`http://127.0.0.1:${running.ports.metrics}/metrics`)).text();
      await new Promise((r) => setTimeout(r, 20));
    }
    return text;
  } finally {
    running.shutdown();
    await running.exited;
  }
}

describe('the dashboard and the alerts against a scrape of the controller', () => {
  let api: FakeApiServer;
  let scrape: string;
  let families: Map<string, string>;
  before(async () => {
    api = await startFakeApiServer();
    scrape = await scrapeController(api);
    families = scrapedFamilies(scrape);
  });
  after(() => api.close());

  it('the scrape serves the leader gauge at 1 and ordinal_build_info, what the queries select Ordinal by', () => {
    assert.match(scrape, /^leader_election_master_status\{name="ordinal-controller"\} 1$/m);
    assert.match(scrape, /^ordinal_build_info\{version="0\.0\.0-test",node_version="v\d+\.\d+\.\d+"\} 1$/m);
  });

  it('every query of the dashboard names only metrics the controller serves', () => {
    const queries = dashboardQueries(dashboard);
    assert.ok(queries.length > 20, `${queries.length} queries`);
    const missing = queries.flatMap((q) => metricNames(q).filter((n) => !isServed(n, families)).map((n) => `${n} in ${q}`));
    assert.deepEqual(missing, []);
  });

  it('every alert rule names only metrics the controller serves', () => {
    const missing = ALERTS.flatMap((a) => metricNames(a.expr).filter((n) => !isServed(n, families)).map((n) => `${n} in ${a.alert}`));
    assert.deepEqual(missing, []);
  });

  it("every metric family of Ordinal's own is on some panel", () => {
    const used = new Set(dashboardQueries(dashboard).flatMap(metricNames).map((n) => n.replace(/_(bucket|sum|count)$/, '')));
    const own = [...families.keys()].filter((n) => /^(statefulset_|ordinal_|workqueue_|leader_election_)/.test(n));
    assert.ok(own.length > 20, own.join(' '));
    assert.deepEqual(own.filter((n) => !used.has(n)), []);
  });
});

describe('the dashboard JSON', () => {
  const panels = dashboard.panels as Json[];
  it('is deploy/observability/ordinal-dashboard.json and the chart\'s copy', () => {
    const version = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { version: string }).version;
    const expected = JSON.stringify(grafanaDashboard(version), null, 2) + '\n';
    assert.equal(readFileSync(`${ROOT}deploy/observability/ordinal-dashboard.json`, 'utf8'), expected);
    assert.equal(readFileSync(`${ROOT}deploy/helm/ordinal/files/ordinal-dashboard.json`, 'utf8'), expected);
  });

  it('has unique panel ids, every panel inside the 24-wide grid, and no two panels on one cell', () => {
    const ids = panels.map((p) => p.id);
    assert.equal(new Set(ids).size, ids.length);
    const cells = new Set<string>();
    for (const p of panels) {
      const g = p.gridPos as { x: number; y: number; w: number; h: number };
      assert.ok(g.x >= 0 && g.w > 0 && g.x + g.w <= 24, `${String(p.title)} ${JSON.stringify(g)}`);
      for (let x = g.x; x < g.x + g.w; x++) for (let y = g.y; y < g.y + g.h; y++) {
        assert.ok(!cells.has(`${x},${y}`), `${String(p.title)} overlaps at ${x},${y}`);
        cells.add(`${x},${y}`);
      }
    }
  });

  it('defines every variable its queries use, and gives each query a refId and the datasource variable', () => {
    const defined = new Set(((dashboard.templating as Json).list as Json[]).map((v) => `$${String(v.name)}`));
    for (const q of dashboardQueries(dashboard)) for (const v of q.match(/\$[a-z]\w*/g) ?? []) assert.ok(defined.has(v), `${v} in ${q}`);
    for (const p of panels.filter((x) => x.type !== 'row')) {
      for (const target of p.targets as Json[]) {
        assert.match(String(target.refId), /^[A-Z]$/);
        assert.deepEqual(target.datasource, { type: 'prometheus', uid: '${datasource}' });
      }
    }
  });
});
