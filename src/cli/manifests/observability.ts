// The observability package, opt-in: a ServiceMonitor (the Prometheus Operator scrapes the metrics Service),
// a PrometheusRule (the alerts of alert-rules.ts) and a ConfigMap holding the Grafana dashboard, labelled for
// Grafana's dashboard sidecar. `ordinal manifests --observability` prints them, `--write deploy` writes
// deploy/observability/ (the same objects, the rules file and the dashboard JSON), and the Helm chart renders
// them from these builders when its `observability.*.enabled` values say so.

import { alertRuleGroup, DEFAULT_RUNBOOK_URL } from './alert-rules.js';
import { grafanaDashboard } from './grafana-dashboard.js';
import { commonLabels, selectorLabels, type ManifestOptions } from './options.js';

export interface ObservabilityOptions {
  /** Prefix of each alert's runbook_url (its section's anchor follows a `#`). */
  runbookUrl: string;
  /** The label Grafana's dashboard sidecar looks for (kube-prometheus-stack: grafana_dashboard: "1"). */
  dashboardLabels: Record<string, string>;
  scrapeInterval: string;
}

export const DEFAULT_OBSERVABILITY: ObservabilityOptions = {
  runbookUrl: DEFAULT_RUNBOOK_URL,
  dashboardLabels: { grafana_dashboard: '1' },
  scrapeInterval: '30s',
};

/** The file name of the dashboard in its ConfigMap (and in deploy/observability/). */
export const DASHBOARD_FILE = 'ordinal-dashboard.json';

export function buildServiceMonitor(o: ManifestOptions, obs: ObservabilityOptions): Record<string, unknown> {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { name: o.name, namespace: o.namespace, labels: commonLabels(o) },
    spec: {
      selector: { matchLabels: selectorLabels },
      namespaceSelector: { matchNames: [o.namespace] },
      endpoints: [{ port: 'metrics', path: '/metrics', interval: obs.scrapeInterval }],
    },
  };
}

export function buildPrometheusRule(o: ManifestOptions, obs: ObservabilityOptions): Record<string, unknown> {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: { name: o.name, namespace: o.namespace, labels: commonLabels(o) },
    spec: { groups: [alertRuleGroup(obs.runbookUrl)] },
  };
}

export function dashboardJson(version: string): string {
  return `${JSON.stringify(grafanaDashboard(version), null, 2)}\n`;
}

export function buildDashboardConfigMap(o: ManifestOptions, obs: ObservabilityOptions): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `${o.name}-dashboard`, namespace: o.namespace, labels: { ...commonLabels(o), ...obs.dashboardLabels } },
    data: { [DASHBOARD_FILE]: dashboardJson(o.version) },
  };
}

/** The package's objects, in the order `ordinal manifests --observability` prints them. */
export function observabilityManifests(o: ManifestOptions, obs: ObservabilityOptions = DEFAULT_OBSERVABILITY): unknown[] {
  return [buildServiceMonitor(o, obs), buildPrometheusRule(o, obs), buildDashboardConfigMap(o, obs)];
}
