// The Helm chart deploy/helm/ordinal/, generated from the same builders as the plain manifests: each
// builder runs with placeholder options (`__HELM_x__`), the YAML is stringified, and placeholders become
// template expressions (inline) or template blocks (a whole `- __HELM_x__` line). So the chart cannot
// drift from `ordinal manifests`; test/deploy/manifests.test.ts pins the files.

import { stringify } from 'yaml';
import { DASHBOARD_FILE } from './observability.js';
import type { ManifestOptions } from './options.js';
import { clusterRules } from './rbac.js';

export const P = (name: string): string => `__HELM_${name}__`;

/** Placeholder → inline template expression. */
const INLINE: Record<string, string> = {
  name: '{{ include "ordinal.name" . }}',
  namespace: '{{ .Release.Namespace }}',
  image: '{{ include "ordinal.image" . }}',
  replicas: '{{ .Values.replicaCount }}',
  target: '{{ .Values.target }}',
  metricsPort: '{{ .Values.metrics.port }}',
  healthPort: '{{ .Values.health.port }}',
  version: '{{ .Chart.AppVersion }}',
  pullPolicy: '{{ .Values.image.pullPolicy }}',
  logFormat: '{{ .Values.logFormat }}',
  concurrentSyncs: '{{ .Values.concurrentSyncs }}',
  kubeApiQps: '{{ .Values.kubeApi.qps }}',
  kubeApiBurst: '{{ .Values.kubeApi.burst }}',
  scrapeInterval: '{{ .Values.observability.serviceMonitor.interval }}',
  runbookUrl: '{{ .Values.observability.prometheusRule.runbookUrl }}',
};

/** The chart's labels plus the extra ones of `.Values.observability.<part>.labels` (what a Prometheus or Grafana selects by). */
const observabilityLabels = (part: string): string[] => [
  'labels:',
  '  {{- include "ordinal.labels" . | nindent %2 }}',
  `  {{- with .Values.observability.${part}.labels }}`,
  '  {{- toYaml . | nindent %2 }}',
  '  {{- end }}',
];

/**
 * Placeholder standing for a whole line (`- __HELM_x__`, `key: __HELM_x__` or `__HELM_x__: null`) →
 * template lines, indented like that line; `%N` in a line becomes that indentation plus N (for nindent).
 */
const BLOCKS: Record<string, string[]> = {
  leaderElect: [
    '{{- if .Values.leaderElection.enabled }}',
    '- --leader-elect',
    '- --leader-elect-namespace={{ .Release.Namespace }}',
    '- --leader-elect-id={{ include "ordinal.name" . }}',
    '{{- end }}',
  ],
  extraArgs: [
    '{{- range .Values.watchNamespaces }}',
    '- --namespace={{ . }}',
    '{{- end }}',
    '{{- with .Values.featureGates }}',
    '- --feature-gates={{ . }}',
    '{{- end }}',
    '{{- range .Values.extraArgs }}',
    '- {{ . | quote }}',
    '{{- end }}',
  ],
  labels: ['labels:', '  {{- include "ordinal.labels" . | nindent %2 }}'],
  resources: ['resources:', '  {{- toYaml .Values.resources | nindent %2 }}'],
  scheduling: [
    '{{- with .Values.nodeSelector }}',
    'nodeSelector: {{- toYaml . | nindent %2 }}',
    '{{- end }}',
    '{{- with .Values.tolerations }}',
    'tolerations: {{- toYaml . | nindent %2 }}',
    '{{- end }}',
    '{{- with .Values.affinity }}',
    'affinity: {{- toYaml . | nindent %2 }}',
    '{{- end }}',
    '{{- with .Values.imagePullSecrets }}',
    'imagePullSecrets: {{- toYaml . | nindent %2 }}',
    '{{- end }}',
  ],
  podAnnotations: ['{{- with .Values.podAnnotations }}', 'annotations: {{- toYaml . | nindent %2 }}', '{{- end }}'],
  serviceMonitorLabels: observabilityLabels('serviceMonitor'),
  prometheusRuleLabels: observabilityLabels('prometheusRule'),
  dashboardLabels: observabilityLabels('dashboard'),
  // the file itself, so that Helm never reads the dashboard's {{legend}} placeholders as its own
  dashboardFile: [`${DASHBOARD_FILE}: |`, `  {{- .Files.Get "files/${DASHBOARD_FILE}" | nindent %2 }}`],
  clusterRules: [
    'rules:',
    '{{- if eq .Values.target "native" }}',
    ...indent(stringify(clusterRules('native')), 2),
    '{{- else if eq .Values.target "both" }}',
    ...indent(stringify(clusterRules('both')), 2),
    '{{- else }}',
    ...indent(stringify(clusterRules('crd')), 2),
    '{{- end }}',
  ],
};

function indent(text: string, n: number): string[] {
  return text.trimEnd().split('\n').map((l) => ' '.repeat(n) + l);
}

/** Replaces placeholders in stringified YAML with Helm template text. */
export function helmize(yaml: string): string {
  const out: string[] = [];
  for (const line of yaml.split('\n')) {
    const block = /^(\s*)(?:- |[\w.-]+: )?__HELM_(\w+)__(?:: null)?$/.exec(line);
    const lines = block ? BLOCKS[block[2] ?? ''] : undefined;
    if (block && lines) {
      const pad = block[1] ?? '';
      for (const l of lines) out.push(pad + l.replace(/%(\d+)/g, (_m, n: string) => String(pad.length + Number(n))));
      continue;
    }
    out.push(line.replace(/__HELM_(\w+)__/g, (m, name: string) => INLINE[name] ?? m));
  }
  return out.join('\n');
}

export const placeholders: ManifestOptions = {
  target: P('target') as ManifestOptions['target'],
  namespace: P('namespace'),
  image: P('image'),
  name: P('name'),
  replicas: P('replicas') as unknown as number,
  version: P('version'),
  extraArgs: [],
  metricsPort: P('metricsPort') as unknown as number,
  healthPort: P('healthPort') as unknown as number,
  concurrentSyncs: P('concurrentSyncs') as unknown as number,
  kubeApiQps: P('kubeApiQps') as unknown as number,
  kubeApiBurst: P('kubeApiBurst') as unknown as number,
};
