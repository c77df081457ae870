// Renders the Helm chart with a real `helm` binary when one is available ($ORDINAL_HELM or `helm` on
// PATH; .ci/run builds one and sets ORDINAL_HELM; without one the test is skipped locally and fails in CI): `helm lint` passes and
// `helm template` with default values gives the same objects as `ordinal manifests`, chart labels aside.
import { describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { observabilityManifests } from '../../src/cli/manifests/observability.js';
import { allManifests, manifestOptions } from '../../src/cli/manifests/render.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const CHART = join(ROOT, 'deploy/helm/ordinal');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const HELM = process.env.ORDINAL_HELM ?? 'helm';

function helm(t: TestContext, ...args: string[]): string | undefined {
  const res = spawnSync(HELM, args, { encoding: 'utf8', timeout: 60_000 });
  if (res.error) {
    const why = `no helm binary (${HELM}): ${res.error.message}; .ci/run builds one (helm.sh/helm/v3/cmd/helm)`;
    if (process.env.CI) throw new Error(why);
    t.skip(why);
    return undefined;
  }
  assert.equal(res.status, 0, `helm ${args.join(' ')}\n${res.stdout}\n${res.stderr}`);
  return res.stdout;
}

type Obj = { kind?: string; metadata?: { name?: string; labels?: Record<string, string> }; spec?: { template?: { metadata?: { labels?: Record<string, string> } } } };

/** Drops labels, where the chart adds helm.sh/chart, instance and managed-by. */
function withoutLabels(o: Obj): Obj {
  const copy = structuredClone(o);
  if (copy.metadata) delete copy.metadata.labels;
  if (copy.spec?.template?.metadata) delete copy.spec.template.metadata.labels;
  return copy;
}

describe('the Helm chart under helm', () => {
  it('passes helm lint', (t) => {
    helm(t, 'lint', CHART, '--strict');
  });

  it('renders, with default values, the objects of `ordinal manifests` (but the Namespace, which Helm does not own)', (t) => {
    const out = helm(t, 'template', 'ordinal', CHART, '--namespace', 'ordinal-system', '--include-crds', '--kube-version', '1.37.0');
    if (out === undefined) return;
    const byKey = (list: Obj[]) => new Map(list.map((o) => [`${o.kind}/${o.metadata?.name}`, withoutLabels(o)]));
    const rendered = byKey(parseAllDocuments(out).map((d) => d.toJS() as Obj).filter(Boolean));
    const plain = byKey((allManifests(manifestOptions(VERSION)) as Obj[]).filter((o) => o.kind !== 'Namespace'));
    assert.deepEqual([...rendered.keys()].sort(), [...plain.keys()].sort());
    for (const [key, obj] of plain) assert.deepEqual(rendered.get(key), obj, key);
  });

  it('renders the native target and optional parts switched off', (t) => {
    const out = helm(t, 'template', 'x', CHART, '--kube-version', '1.37.0', '--set', 'target=native,leaderElection.enabled=false,metrics.service.enabled=false', '--set', 'watchNamespaces={a,b}');
    if (out === undefined) return;
    const objs = parseAllDocuments(out).map((d) => d.toJS() as Obj & { rules?: { apiGroups: string[] }[] }).filter(Boolean);
    assert.ok(!objs.some((o) => o.kind === 'Role' || o.kind === 'Service'));
    const role = objs.find((o) => o.kind === 'ClusterRole');
    assert.ok(!role?.rules?.some((r) => r.apiGroups.includes('apps.ordinal.dev')));
    assert.match(out, /- --namespace=a\n\s+- --namespace=b/);
    assert.doesNotMatch(out, /--leader-elect/);
  });

  it('renders the observability package only when asked, as `ordinal manifests --observability` prints it, with the labels given', (t) => {
    const out = helm(t, 'template', 'ordinal', CHART, '--namespace', 'ordinal-system', '--kube-version', '1.37.0',
      '--set', 'observability.serviceMonitor.enabled=true,observability.prometheusRule.enabled=true,observability.dashboard.enabled=true',
      '--set', 'observability.prometheusRule.labels.release=kps,observability.serviceMonitor.labels.release=kps');
    if (out === undefined) return;
    const objs = parseAllDocuments(out).map((d) => d.toJS() as Obj).filter(Boolean);
    const kinds = ['ServiceMonitor', 'PrometheusRule', 'ConfigMap'];
    const rendered = new Map(objs.filter((o) => kinds.includes(o.kind ?? '')).map((o) => [o.kind, o]));
    for (const plain of observabilityManifests(manifestOptions(VERSION)) as Obj[]) {
      assert.deepEqual(withoutLabels(rendered.get(plain.kind)!), withoutLabels(plain), plain.kind);
    }
    assert.equal(rendered.get('PrometheusRule')?.metadata?.labels?.release, 'kps');
    assert.equal(rendered.get('ServiceMonitor')?.metadata?.labels?.release, 'kps');
    assert.equal(rendered.get('ConfigMap')?.metadata?.labels?.grafana_dashboard, '1', "Grafana's sidecar label by default");
    const none = helm(t, 'template', 'ordinal', CHART, '--kube-version', '1.37.0');
    assert.ok(!parseAllDocuments(none ?? '').some((d) => kinds.includes((d.toJS() as Obj | null)?.kind ?? '')), 'off by default');
  });

  it("sets the alerts' runbook links from observability.prometheusRule.runbookUrl", (t) => {
    const out = helm(t, 'template', 'x', CHART, '--kube-version', '1.37.0', '--set', 'observability.prometheusRule.enabled=true,observability.prometheusRule.runbookUrl=https://docs.example/ordinal/runbooks');
    if (out === undefined) return;
    assert.match(out, /runbook_url: https:\/\/docs\.example\/ordinal\/runbooks#ordinalrolloutstuck$/m);
    assert.match(out, /description: "StatefulSet \{\{ \$labels\.statefulset_namespace \}\}\/\{\{ \$labels\.statefulset_name \}\} is Progressing=False/, "Prometheus's templates pass through Helm");
  });
});
