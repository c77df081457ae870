// The controller's Deployment and its metrics Service. The pod runs as a non-root user on a read-only
// root filesystem with every capability dropped; probes hit the health port; SIGTERM gives the
// controller terminationGracePeriodSeconds to release its Lease and drain in-flight syncs.

import { commonLabels, selectorLabels, type ManifestOptions } from './options.js';

export function controllerArgs(o: ManifestOptions): string[] {
  return [
    'controller',
    `--target=${o.target}`,
    `--metrics-bind-address=:${o.metricsPort}`,
    `--health-probe-bind-address=:${o.healthPort}`,
    '--log-format=json',
    '--leader-elect',
    `--leader-elect-namespace=${o.namespace}`,
    `--leader-elect-id=${o.name}`,
    `--concurrent-syncs=${o.concurrentSyncs}`,
    `--kube-api-qps=${o.kubeApiQps}`,
    `--kube-api-burst=${o.kubeApiBurst}`,
    ...o.extraArgs,
  ];
}

function container(o: ManifestOptions): Record<string, unknown> {
  const probe = (path: string, initialDelaySeconds: number) => ({
    httpGet: { path, port: 'health' },
    initialDelaySeconds,
    periodSeconds: 10,
    timeoutSeconds: 2,
    failureThreshold: 3,
  });
  return {
    name: 'controller',
    image: o.image,
    imagePullPolicy: 'IfNotPresent',
    args: controllerArgs(o),
    env: [
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: 'NODE_ENV', value: 'production' },
    ],
    ports: [
      { name: 'metrics', containerPort: o.metricsPort, protocol: 'TCP' },
      { name: 'health', containerPort: o.healthPort, protocol: 'TCP' },
    ],
    livenessProbe: probe('/healthz', 15),
    readinessProbe: probe('/readyz', 5),
    resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '512Mi' } },
    securityContext: {
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
    },
    volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
  };
}

export function buildDeployment(o: ManifestOptions): Record<string, unknown> {
  const labels = commonLabels(o);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: o.name, namespace: o.namespace, labels },
    spec: {
      replicas: o.replicas,
      selector: { matchLabels: selectorLabels },
      template: {
        metadata: { labels: { ...labels } },
        spec: {
          serviceAccountName: o.name,
          terminationGracePeriodSeconds: 30,
          securityContext: { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [container(o)],
          volumes: [{ name: 'tmp', emptyDir: { sizeLimit: '64Mi' } }],
        },
      },
    },
  };
}

export function buildMetricsService(o: ManifestOptions): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: `${o.name}-metrics`, namespace: o.namespace, labels: commonLabels(o) },
    spec: { selector: selectorLabels, ports: [{ name: 'metrics', port: o.metricsPort, targetPort: 'metrics', protocol: 'TCP' }] },
  };
}

export function buildNamespace(o: ManifestOptions): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name: o.namespace, labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } };
}
