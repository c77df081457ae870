// Scenario pieces for the claim template tests: the set `db` with one claim template `data` (1Gi), the
// StorageClasses beside it, and the template edits, written once for every test that runs them.

/** A StorageClass object line for a scenario's `objects` list. */
export const storageClass = (name: string, allowVolumeExpansion: boolean): string =>
  `  - {apiVersion: storage.k8s.io/v1, kind: StorageClass, metadata: {name: ${name}}, provisioner: simulated, allowVolumeExpansion: ${allowVolumeExpansion}}`;

export interface DbSetOptions {
  replicas: number;
  /** The claim template's storageClassName (none: no class). */
  className?: string;
  volumeClaimUpdatePolicy?: string;
  /** Written only when given. */
  podManagementPolicy?: 'OrderedReady' | 'Parallel';
  /** A RollingUpdate strategy with this maxUnavailable (and partition), when given. */
  maxUnavailable?: number;
  partition?: number;
}

/** The claim templates value: one `data` template of `storage`. */
export const claimTemplates = (storage: string, className?: string): string =>
  `[{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], ${className ? `storageClassName: ${className}, ` : ''}resources: {requests: {storage: ${storage}}}}}]`;

/** The fields of the apps.ordinal.dev/v1 StatefulSet `db`'s spec, one per line, its claims `storage` (1Gi). */
function dbSpec(o: DbSetOptions, storage = '1Gi'): string[] {
  const strategy =
    o.maxUnavailable === undefined ? [] : [`updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: ${o.maxUnavailable}${o.partition === undefined ? '' : `, partition: ${o.partition}`}}}`];
  return [
    `replicas: ${o.replicas}`,
    ...(o.podManagementPolicy ? [`podManagementPolicy: ${o.podManagementPolicy}`] : []),
    ...(o.volumeClaimUpdatePolicy ? [`volumeClaimUpdatePolicy: ${o.volumeClaimUpdatePolicy}`] : []),
    ...strategy,
    'selector: {matchLabels: {app: db}}',
    'template: {metadata: {labels: {app: db}}, spec: {containers: [{name: c, image: "db:1"}]}}',
    `volumeClaimTemplates: ${claimTemplates(storage, o.className)}`,
  ];
}

/** The apps.ordinal.dev/v1 StatefulSet `db` as an `objects` item, its claims 1Gi. */
export function dbSet(o: DbSetOptions): string {
  return ['  - apiVersion: apps.ordinal.dev/v1', '    kind: StatefulSet', '    metadata: {name: db}', '    spec:', ...dbSpec(o).map((f) => `      ${f}`)].join('\n');
}

/** The same set as a manifest of its own (what `kubectl apply -f` takes), its claims `storage`. */
export function dbManifest(o: DbSetOptions, storage = '1Gi'): string {
  return ['apiVersion: apps.ordinal.dev/v1', 'kind: StatefulSet', 'metadata: {name: db}', 'spec:', ...dbSpec(o, storage).map((f) => `  ${f}`), ''].join('\n');
}

/** A step that edits `db`'s claim template to `storage`. */
export const growTemplate = (storage: string, className?: string): string =>
  `  - patch: {kind: StatefulSet, name: db, merge: {spec: {volumeClaimTemplates: ${claimTemplates(storage, className)}}}}`;
