// What a rendering of the deploy manifests depends on. The same builders serve `ordinal manifests`,
// the checked-in deploy/*.yaml and (with placeholders) the Helm chart's templates.

export type Target = 'crd' | 'native' | 'both';

export interface ManifestOptions {
  target: Target;
  /** Namespace of the controller's Deployment, ServiceAccount and Lease. */
  namespace: string;
  image: string;
  /** Name of the Deployment, ServiceAccount, ClusterRole, Lease … */
  name: string;
  replicas: number;
  version: string;
  /** Extra `ordinal controller` flags, e.g. `--feature-gates=…`. */
  extraArgs: string[];
  metricsPort: number;
  healthPort: number;
  concurrentSyncs: number;
  kubeApiQps: number;
  kubeApiBurst: number;
}

/** The image defaults to `IMAGE_REPOSITORY:<version>`, as the Helm chart's appVersion. */
export const IMAGE_REPOSITORY = 'ordinal';

export const DEFAULT_MANIFEST_OPTIONS: Omit<ManifestOptions, 'version' | 'image'> = {
  target: 'crd',
  namespace: 'ordinal-system',
  name: 'ordinal-controller',
  replicas: 1,
  extraArgs: [],
  metricsPort: 8080,
  healthPort: 8081,
  concurrentSyncs: 5,
  kubeApiQps: 20,
  kubeApiBurst: 30,
};

export function commonLabels(o: Pick<ManifestOptions, 'version'>): Record<string, string> {
  return {
    'app.kubernetes.io/name': 'ordinal',
    'app.kubernetes.io/component': 'controller',
    'app.kubernetes.io/version': o.version,
    'app.kubernetes.io/managed-by': 'ordinal-manifests',
  };
}

export const selectorLabels = { 'app.kubernetes.io/name': 'ordinal', 'app.kubernetes.io/component': 'controller' };
