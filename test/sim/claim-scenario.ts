// Scenario pieces for the claim template tests: the set `db` with one claim template `data` (1Gi), the
// StorageClasses beside it, the template edits, and running it, written once for every test that runs them.

import { Resources } from '../../src/api/client.js';
import type { PersistentVolumeClaim, Pod, StatefulSet } from '../../src/api/types.js';
import { parseScenario } from '../../src/sim/scenario.js';
import { Simulation } from '../../src/sim/simulation.js';
import type { TimelineRecord } from '../../src/sim/timeline.js';

/** A StorageClass object line for a scenario's `objects` list. */
export const storageClass = (name: string, allowVolumeExpansion: boolean): string =>
  `  - {apiVersion: storage.k8s.io/v1, kind: StorageClass, metadata: {name: ${name}}, provisioner: simulated, allowVolumeExpansion: ${allowVolumeExpansion}}`;

export interface DbSetOptions {
  replicas: number;
  /** The claim template's storage request, instead of 1Gi. */
  storage?: string;
  /** The claim template's storageClassName (none: no class). */
  className?: string;
  volumeClaimUpdatePolicy?: string;
  /** Written only when given. */
  podManagementPolicy?: 'OrderedReady' | 'Parallel';
  /** A RollingUpdate strategy with this maxUnavailable (and partition), when given. */
  maxUnavailable?: number;
  partition?: number;
  /** Any other updateStrategy, as YAML (wins over maxUnavailable). */
  updateStrategy?: string;
  minReadySeconds?: number;
}

/** The claim templates value: one `data` template of `storage`. */
export const claimTemplates = (storage: string, className?: string): string =>
  `[{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], ${className ? `storageClassName: ${className}, ` : ''}resources: {requests: {storage: ${storage}}}}}]`;

/** The fields of the apps.ordinal.dev/v1 StatefulSet `db`'s spec, one per line, its claims `storage` (default 1Gi). */
function dbSpec(o: DbSetOptions, storage = o.storage ?? '1Gi'): string[] {
  const rolling = o.maxUnavailable === undefined ? [] : [`updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: ${o.maxUnavailable}${o.partition === undefined ? '' : `, partition: ${o.partition}`}}}`];
  const strategy = o.updateStrategy === undefined ? rolling : [`updateStrategy: ${o.updateStrategy}`];
  return [
    `replicas: ${o.replicas}`,
    ...(o.minReadySeconds === undefined ? [] : [`minReadySeconds: ${o.minReadySeconds}`]),
    ...(o.podManagementPolicy ? [`podManagementPolicy: ${o.podManagementPolicy}`] : []),
    ...(o.volumeClaimUpdatePolicy ? [`volumeClaimUpdatePolicy: ${o.volumeClaimUpdatePolicy}`] : []),
    ...strategy,
    'selector: {matchLabels: {app: db}}',
    'template: {metadata: {labels: {app: db}}, spec: {containers: [{name: c, image: "db:1"}]}}',
    `volumeClaimTemplates: ${claimTemplates(storage, o.className)}`,
  ];
}

/** The apps.ordinal.dev/v1 StatefulSet `db` as an `objects` item. */
export function dbSet(o: DbSetOptions): string {
  return ['  - apiVersion: apps.ordinal.dev/v1', '    kind: StatefulSet', '    metadata: {name: db}', '    spec:', ...dbSpec(o).map((f) => `      ${f}`)].join('\n');
}

/** The same set as a manifest of its own (what `kubectl apply -f` takes), its claims `storage`. */
export function dbManifest(o: DbSetOptions, storage = o.storage ?? '1Gi'): string {
  return ['apiVersion: apps.ordinal.dev/v1', 'kind: StatefulSet', 'metadata: {name: db}', 'spec:', ...dbSpec(o, storage).map((f) => `  ${f}`), ''].join('\n');
}

/** A step that edits `db`'s claim template to `storage`. */
export const growTemplate = (storage: string, className?: string): string =>
  `  - patch: {kind: StatefulSet, name: db, merge: {spec: {volumeClaimTemplates: ${claimTemplates(storage, className)}}}}`;

/** Runs a scenario text to its end; what the claim tests look at afterwards: the claims, pods and set `db`, the records. */
export async function runDbScenario(text: string) {
  const sim = new Simulation(parseScenario(text));
  await sim.start();
  await sim.runSteps();
  const user = sim.world.user;
  const claims = (await user.list<PersistentVolumeClaim>(Resources.persistentVolumeClaims, 'default')).items;
  const pods = (await user.list<Pod>(Resources.pods, 'default')).items;
  const set = await user.get<StatefulSet>(Resources.ordinalStatefulSets, 'default', 'db');
  const records: TimelineRecord[] = sim.records;
  const failed = sim.failed;
  await sim.finish();
  return { failed, claims, pods, set, records };
}
