// The example scenarios (examples/*.yaml) as inputs for the real API server: their StatefulSets, moved to
// the test's namespace and apiVersion, and their simulated-kubelet settings (image behaviours kept,
// start/termination times shortened so the suite stays fast).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { KubeObject, StatefulSet } from '../../src/api/types.js';
import type { KubeletConfig } from '../../src/cluster/kubelet/index.js';
import { longestSeconds } from '../../src/cluster/kubelet/config.js';

export interface Example {
  name: string;
  objects: KubeObject[];
  cluster: KubeletConfig;
}

interface ScenarioFile {
  name?: string;
  cluster?: KubeletConfig;
  objects?: KubeObject[];
}

export function loadExample(file: string): Example {
  const text = readFileSync(new URL(`../../examples/${file}`, import.meta.url), 'utf8');
  const s = parse(text) as ScenarioFile;
  return { name: s.name ?? file, objects: s.objects ?? [], cluster: s.cluster ?? {} };
}

/** The example's StatefulSet `name`, in `namespace` under `apiVersion`, with `overrides` merged into spec. */
export function exampleSet(
  example: Example,
  name: string,
  where: { namespace: string; apiVersion: string },
  overrides: Partial<StatefulSet['spec']> = {},
): StatefulSet {
  const found = example.objects.find((o) => o.kind === 'StatefulSet' && o.metadata.name === name);
  if (!found) throw new Error(`example ${example.name} has no StatefulSet ${name}`);
  const set = structuredClone(found) as StatefulSet;
  return {
    ...set,
    apiVersion: where.apiVersion,
    metadata: { ...set.metadata, namespace: where.namespace },
    spec: { ...set.spec, ...overrides },
  };
}

/** The example's kubelet settings with times capped, so that waits stay short on real time. */
export function fastKubelet(example: Example, times: { podStartSeconds?: number; podTerminationSeconds?: number } = {}): KubeletConfig {
  return {
    ...example.cluster,
    podStartSeconds: times.podStartSeconds ?? Math.min(longestSeconds(example.cluster.podStartSeconds ?? 1), 1),
    podTerminationSeconds: times.podTerminationSeconds ?? Math.min(longestSeconds(example.cluster.podTerminationSeconds ?? 1), 1),
  };
}

/** `set` renamed, with its selector and template labels following the new name (app=<name>). */
export function renamed(set: StatefulSet, name: string): StatefulSet {
  const out = structuredClone(set);
  out.metadata.name = name;
  out.spec.selector = { matchLabels: { app: name } };
  out.spec.template.metadata = { ...out.spec.template.metadata, labels: { app: name } };
  return out;
}
