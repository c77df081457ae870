import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { generatedFiles, manifestsCommand } from '../../src/cli/commands/manifests.js';
import { buildProgram } from '../../src/cli/program.js';
import { allManifests, manifestOptions } from '../../src/cli/manifests/render.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const DEPLOY = join(ROOT, 'deploy');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const HAND_WRITTEN = new Set(['README.md']);

type Obj = Record<string, unknown> & { kind?: string; metadata?: { name?: string; namespace?: string } };
const docs = (text: string): Obj[] => parseAllDocuments(text).map((d) => d.toJS() as Obj);
const files = generatedFiles(VERSION);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
}

describe('deploy/ is the output of `ordinal manifests --write deploy`', () => {
  for (const [path, text] of Object.entries(files)) {
    it(`deploy/${path} is up to date (regenerate: node bin/ordinal.js manifests --write deploy)`, () => {
      assert.equal(readFileSync(join(DEPLOY, path), 'utf8'), text);
    });
  }
  it('holds no generated-looking file the generator no longer writes', () => {
    const stale = walk(DEPLOY)
      .map((p) => relative(DEPLOY, p))
      .filter((p) => !(p in files) && !HAND_WRITTEN.has(p));
    assert.deepEqual(stale, []);
  });
});

describe('deploy/ for kubectl apply -f', () => {
  it('has the Namespace in namespace.yaml alone, so that applying it first makes the other files work in any order', () => {
    assert.deepEqual(docs(files['namespace.yaml'] ?? '').map((d) => `${d.kind}/${d.metadata?.name}`), ['Namespace/ordinal-system']);
    for (const [path, text] of Object.entries(files).filter(([p]) => !p.startsWith('helm/') && p !== 'namespace.yaml')) {
      assert.ok(!docs(text).some((d) => d.kind === 'Namespace'), `${path} holds no Namespace`);
    }
  });
});

describe('the CRD', () => {
  const [crd] = docs(files['crd.yaml'] ?? '') as [Obj & { spec: Record<string, never> }];
  const spec = crd.spec as unknown as {
    group: string;
    scope: string;
    names: { kind: string; plural: string; shortNames: string[] };
    versions: { name: string; served: boolean; storage: boolean; subresources: Record<string, unknown>; additionalPrinterColumns: { name: string; jsonPath: string }[] }[];
  };
  it('defines apps.ordinal.dev/v1 StatefulSet, plural statefulsets, shortName osts, namespaced', () => {
    assert.equal(crd.metadata?.name, 'statefulsets.apps.ordinal.dev');
    assert.deepEqual([spec.group, spec.scope, spec.names.kind, spec.names.plural], ['apps.ordinal.dev', 'Namespaced', 'StatefulSet', 'statefulsets']);
    assert.deepEqual(spec.names.shortNames, ['osts']);
  });
  it('serves and stores exactly one version, v1, with status and scale subresources', () => {
    assert.equal(spec.versions.length, 1);
    const v = spec.versions[0]!;
    assert.deepEqual([v.name, v.served, v.storage], ['v1', true, true]);
    assert.deepEqual(v.subresources, {
      status: {},
      scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' },
    });
  });
  it('prints replicas, ready, available, updated, strategy and age', () => {
    const cols = spec.versions[0]!.additionalPrinterColumns.map((c) => c.name);
    for (const c of ['Replicas', 'Ready', 'Available', 'Updated', 'Strategy', 'Age']) assert.ok(cols.includes(c), c);
  });
  it('fits, with room to spare, kubectl apply\'s last-applied-configuration annotation (256 KiB), with its pod template schema of Kubernetes 1.37', () => {
    // client-side `kubectl apply -f deploy/crd.yaml` stores the whole object, as JSON, in one annotation
    assert.ok(JSON.stringify(crd).length < 200 * 1024, `${JSON.stringify(crd).length} bytes`);
    const schema = (spec.versions[0] as unknown as { schema: { openAPIV3Schema: { properties: { spec: { properties: { template: { properties: { spec: { properties: Record<string, unknown> } } } } } } } } }).schema;
    const podSpec = schema.openAPIV3Schema.properties.spec.properties.template.properties.spec.properties;
    for (const field of ['containers', 'initContainers', 'volumes', 'affinity', 'tolerations', 'securityContext']) assert.ok(field in podSpec, field);
  });
  it('bounds int32 fields by minimum/maximum, not format (kube-apiserver reports a format error without a field path)', () => {
    const text = JSON.stringify(crd);
    assert.ok(!text.includes('"format":"int32"'), 'no format: int32 left');
    const replicas = (spec.versions[0] as unknown as { schema: { openAPIV3Schema: { properties: { spec: { properties: { replicas: { minimum: number; maximum: number } } } } } } }).schema.openAPIV3Schema.properties.spec.properties.replicas;
    assert.deepEqual([replicas.minimum, replicas.maximum], [-2147483648, 2147483647]);
  });
  it('is structural: every schema node has a type, or is int-or-string, or keeps any value (a quantity)', () => {
    const bad: string[] = [];
    const visit = (s: Record<string, unknown>, path: string) => {
      if (!s.type && !s['x-kubernetes-int-or-string'] && !s['x-kubernetes-preserve-unknown-fields']) bad.push(path);
      for (const [k, child] of Object.entries((s.properties as Record<string, Record<string, unknown>>) ?? {})) visit(child, `${path}.${k}`);
      if (s.items) visit(s.items as Record<string, unknown>, `${path}[]`);
      if (s.additionalProperties) visit(s.additionalProperties as Record<string, unknown>, `${path}{}`);
    };
    visit((spec.versions[0] as unknown as { schema: { openAPIV3Schema: Record<string, unknown> } }).schema.openAPIV3Schema, '');
    assert.deepEqual(bad, []);
  });
});

describe('RBAC is least privilege', () => {
  type Rule = { apiGroups: string[]; resources: string[]; verbs: string[] };
  const clusterRole = (file: string) => docs(files[file] ?? '').find((d) => d.kind === 'ClusterRole') as Obj & { rules: Rule[] };
  const grants = (rules: Rule[], group: string, resource: string) => rules.filter((r) => r.apiGroups.includes(group) && r.resources.includes(resource)).flatMap((r) => r.verbs);

  for (const file of ['rbac.yaml', 'rbac-native.yaml']) {
    it(`${file}: no wildcards, no secrets, claims never deleted, sets read-only except status and finalizers`, () => {
      const { rules } = clusterRole(file);
      for (const r of rules) for (const x of [...r.apiGroups, ...r.resources, ...r.verbs]) assert.notEqual(x, '*');
      assert.deepEqual(grants(rules, '', 'secrets'), []);
      assert.ok(!grants(rules, '', 'persistentvolumeclaims').includes('delete'));
      const group = file === 'rbac.yaml' ? 'apps.ordinal.dev' : 'apps';
      assert.deepEqual(grants(rules, group, 'statefulsets').sort(), ['get', 'list', 'watch']);
      assert.deepEqual(grants(rules, group, 'statefulsets/status').sort(), ['get', 'patch', 'update']);
      assert.deepEqual(grants(rules, group, 'statefulsets/finalizers'), ['update']);
      assert.ok(grants(rules, '', 'events').includes('create'));
    });
  }
  it('lets the CRD target read PodDisruptionBudgets (respectPodDisruptionBudgets), never write them, and evict pods; native neither', () => {
    assert.deepEqual(grants(clusterRole('rbac.yaml').rules, 'policy', 'poddisruptionbudgets'), ['list', 'watch']);
    assert.deepEqual(grants(clusterRole('rbac-native.yaml').rules, 'policy', 'poddisruptionbudgets'), []);
    assert.deepEqual(grants(clusterRole('rbac.yaml').rules, '', 'pods/eviction'), ['create']);
    assert.deepEqual(grants(clusterRole('rbac-native.yaml').rules, '', 'pods/eviction'), []);
  });
  it('lets the CRD target list and watch Nodes (topologyKey reads their zone label), nothing more; native not at all', () => {
    assert.deepEqual(grants(clusterRole('rbac.yaml').rules, '', 'nodes'), ['list', 'watch']);
    assert.deepEqual(grants(clusterRole('rbac-native.yaml').rules, '', 'nodes'), []);
  });
  it('grants each target only its own StatefulSet kind', () => {
    assert.deepEqual(grants(clusterRole('rbac.yaml').rules, 'apps', 'statefulsets'), []);
    assert.deepEqual(grants(clusterRole('rbac-native.yaml').rules, 'apps.ordinal.dev', 'statefulsets'), []);
  });
  it('limits the Lease to a namespaced Role, with get/update only on the controller\'s Lease name', () => {
    const role = docs(files['rbac.yaml'] ?? '').find((d) => d.kind === 'Role') as Obj & { rules: (Rule & { resourceNames?: string[] })[] };
    assert.equal(role.metadata?.namespace, 'ordinal-system');
    const leaseRules = role.rules.filter((r) => r.resources.includes('leases'));
    assert.deepEqual(leaseRules.find((r) => r.verbs.includes('update'))?.resourceNames, ['ordinal-controller']);
    assert.deepEqual(leaseRules.find((r) => !r.resourceNames)?.verbs, ['create']);
  });
});

describe('the Deployment', () => {
  const deployment = docs(files['deployment.yaml'] ?? '').find((d) => d.kind === 'Deployment') as unknown as {
    spec: { template: { spec: { securityContext: Record<string, unknown>; containers: Record<string, never>[]; serviceAccountName: string } } };
  };
  const pod = deployment.spec.template.spec;
  const c = pod.containers[0] as unknown as {
    image: string;
    args: string[];
    securityContext: Record<string, unknown>;
    ports: { name: string; containerPort: number }[];
    livenessProbe: { httpGet: { path: string; port: string } };
    readinessProbe: { httpGet: { path: string; port: string } };
  };
  it('runs non-root with a read-only root filesystem, no privilege escalation and no capabilities', () => {
    assert.equal(pod.securityContext.runAsNonRoot, true);
    assert.equal(c.securityContext.readOnlyRootFilesystem, true);
    assert.equal(c.securityContext.allowPrivilegeEscalation, false);
    assert.deepEqual(c.securityContext.capabilities, { drop: ['ALL'] });
  });
  it('probes /healthz and /readyz on the health port and exposes the metrics port the flags bind', () => {
    assert.deepEqual(c.livenessProbe.httpGet, { path: '/healthz', port: 'health' });
    assert.deepEqual(c.readinessProbe.httpGet, { path: '/readyz', port: 'health' });
    const port = (name: string) => c.ports.find((p) => p.name === name)?.containerPort;
    assert.ok(c.args.includes(`--metrics-bind-address=:${port('metrics')}`));
    assert.ok(c.args.includes(`--health-probe-bind-address=:${port('health')}`));
  });
  it('runs `ordinal controller --target=crd --leader-elect` from the image of this version', () => {
    assert.equal(c.image, `ordinal:${VERSION}`);
    assert.deepEqual(c.args.slice(0, 2), ['controller', '--target=crd']);
    assert.ok(c.args.includes('--leader-elect'));
    assert.equal(pod.serviceAccountName, 'ordinal-controller');
  });
});

describe('ordinal manifests', () => {
  it('takes -n for --namespace, as kubectl', () => {
    const manifests = buildProgram().commands.find((c) => c.name() === 'manifests');
    assert.equal(manifests?.options.find((o) => o.short === '-n')?.long, '--namespace');
  });

  it('prints the CRD only for targets that use it, and honours --namespace and --image', () => {
    let out = '';
    manifestsCommand(VERSION, { target: 'native', namespace: 'ops', image: 'reg/ordinal:dev' }, (t) => (out += t));
    const objs = docs(out);
    assert.ok(!objs.some((d) => d.kind === 'CustomResourceDefinition'));
    assert.ok(objs.filter((d) => d.metadata?.namespace).every((d) => d.metadata?.namespace === 'ops'));
    assert.match(out, /image: reg\/ordinal:dev/);
    assert.match(out, /--target=native/);
    assert.equal(allManifests(manifestOptions(VERSION)).filter((d) => (d as Obj).kind === 'CustomResourceDefinition').length, 1);
  });
});

describe('ordinal manifests --observability', () => {
  const print = (opts: Partial<Parameters<typeof manifestsCommand>[1]>) => {
    let out = '';
    manifestsCommand(VERSION, { target: 'crd', ...opts }, (t) => (out += t));
    return docs(out);
  };
  it('adds a ServiceMonitor of the metrics Service, a PrometheusRule of the alerts and the dashboard ConfigMap; without it, none', () => {
    const objs = print({ observability: true, namespace: 'ops' });
    assert.deepEqual(objs.slice(-3).map((d) => `${d.kind}/${d.metadata?.namespace}`), ['ServiceMonitor/ops', 'PrometheusRule/ops', 'ConfigMap/ops']);
    assert.ok(!print({}).some((d) => ['ServiceMonitor', 'PrometheusRule'].includes(d.kind ?? '')));
    const service = objs.find((d) => d.kind === 'Service') as Obj & { metadata: { labels: Record<string, string> }; spec: { ports: { name: string }[] } };
    const monitor = objs.find((d) => d.kind === 'ServiceMonitor') as Obj & { spec: { selector: { matchLabels: Record<string, string> }; endpoints: { port: string }[]; namespaceSelector: { matchNames: string[] } } };
    for (const [k, v] of Object.entries(monitor.spec.selector.matchLabels)) assert.equal(service.metadata.labels[k], v, `the Service has ${k}=${v}`);
    assert.ok(service.spec.ports.some((p) => p.name === monitor.spec.endpoints[0]?.port));
    assert.deepEqual(monitor.spec.namespaceSelector.matchNames, ['ops']);
    const dashboard = objs.find((d) => d.kind === 'ConfigMap') as Obj & { metadata: { labels: Record<string, string> }; data: Record<string, string> };
    assert.equal(dashboard.metadata.labels.grafana_dashboard, '1');
    assert.equal(JSON.parse(dashboard.data['ordinal-dashboard.json'] ?? '{}').uid, 'ordinal-controller');
  });
  it('links the runbooks under --runbook-url, and refuses --runbook-url alone', () => {
    const rule = print({ observability: true, runbookUrl: 'https://wiki.example/ordinal' }).find((d) => d.kind === 'PrometheusRule') as Obj & { spec: { groups: { rules: { annotations: { runbook_url: string } }[] }[] } };
    const links = rule.spec.groups[0]!.rules.map((r) => r.annotations.runbook_url);
    assert.ok(links.length > 5 && links.every((l) => /^https:\/\/wiki\.example\/ordinal#ordinal\w+$/.test(l)), links.join(' '));
    const program = buildProgram();
    program.exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
    for (const c of program.commands) c.exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
    assert.throws(() => program.parse(['manifests', '--runbook-url', 'x'], { from: 'user' }), (e: { exitCode?: number; message?: string }) => e.exitCode === 2 && /--runbook-url needs --observability/.test(e.message ?? ''));
  });
});

describe('the Helm chart', () => {
  const templates = Object.entries(files).filter(([p]) => p.startsWith('helm/ordinal/templates/'));
  it('keeps no placeholder of the generator', () => {
    for (const [path, text] of templates) assert.doesNotMatch(text, /__HELM_/, path);
  });
  it('balances every if/with/range with an end', () => {
    for (const [path, text] of templates) {
      const opens = (text.match(/\{\{-?\s*(if|with|range|define)\b/g) ?? []).length;
      const ends = (text.match(/\{\{-?\s*end\b/g) ?? []).length;
      assert.equal(opens, ends, path);
    }
  });
  it('ships the same CRD as deploy/crd.yaml in crds/ (Helm installs it before the templates)', () => {
    assert.equal(files['helm/ordinal/crds/statefulsets.apps.ordinal.dev.yaml'], files['crd.yaml']);
  });
  it('has Chart.yaml and values.yaml that parse, with the version of the package', () => {
    const chart = docs(files['helm/ordinal/Chart.yaml'] ?? '')[0] as { version: string; appVersion: string };
    assert.deepEqual([chart.version, chart.appVersion], [VERSION, VERSION]);
    const values = docs(files['helm/ordinal/values.yaml'] ?? '')[0] as { target: string; leaderElection: { enabled: boolean } };
    assert.equal(values.target, 'crd');
    assert.equal(values.leaderElection.enabled, true);
  });
});
