// What `ordinal kubelet` plays: the scenario format's `cluster` block (docs/scenarios.md) — pod start and
// termination times, image behaviours, the simulated storage — read from a file (`-f`: the block itself, or
// a whole scenario, whose block is taken) and the flags, which win. Parsed by the simulator's own parser, so
// a setting means the same on a real API server as in a scenario.

import { loadYamlDocuments, YamlError } from '../../api/yaml-loader.js';
import type { KubeletConfig } from '../../cluster/kubelet/index.js';
import type { StorageConfig } from '../../cluster/storage/storage-actor.js';
import { parseCluster } from '../../sim/scenario-cluster.js';
import { at, Issues, isObject, ScenarioError } from '../../sim/scenario-fields.js';

export interface NodeFlags {
  /** Seconds, overriding the file's podStartSeconds. */
  podStartSeconds?: number;
  /** Seconds, overriding the file's podTerminationSeconds. */
  terminationSeconds?: number;
  /** false: leave claims alone (no simulated storage). */
  storage?: boolean;
}

export interface NodeConfig {
  kubelet: KubeletConfig;
  /** The simulated storage, unless `--no-storage`: claims bound and expanded as in a scenario. */
  storage?: StorageConfig;
}

/** The scenario's storage defaults, used when the file has no `storage` block. */
const DEFAULT_STORAGE: StorageConfig = { bindSeconds: 0, expansionSeconds: 10, classes: {} };

/** The `cluster` block of the file's text and its path in the file; throws ScenarioError (exit 2). */
function clusterBlock(text: string, source: string): { block: unknown; path: string } {
  let docs: unknown[];
  try {
    docs = loadYamlDocuments(text);
  } catch (e) {
    if (e instanceof YamlError) throw new ScenarioError(source, [], e.message);
    throw e;
  }
  if (docs.length !== 1) throw new ScenarioError(source, [{ path: '', message: `want one YAML document (the cluster block, or a scenario), got ${docs.length}` }]);
  const [doc] = docs;
  return isObject(doc) && doc.kind === 'Scenario' ? { block: doc.cluster ?? {}, path: 'cluster' } : { block: doc, path: '' };
}

/** The node's settings from the file's text (if any) and the flags; throws ScenarioError naming every bad field. */
export function nodeConfig(file: { text: string; source: string } | undefined, flags: NodeFlags): NodeConfig {
  const issues = new Issues();
  const { block, path } = file === undefined ? { block: undefined, path: '' } : clusterBlock(file.text, file.source);
  const cluster = parseCluster(block, path, issues);
  if (cluster.maxObjects !== undefined) issues.add(at(path, 'maxObjects'), "the in-memory API server's setting; a real API server has none");
  if (issues.list.length > 0) throw new ScenarioError(file?.source ?? 'flags', issues.list);
  const kubelet: KubeletConfig = {
    podStartSeconds: flags.podStartSeconds ?? cluster.podStartSeconds,
    podTerminationSeconds: flags.terminationSeconds ?? cluster.podTerminationSeconds,
    images: cluster.images,
  };
  return { kubelet, ...(flags.storage === false ? {} : { storage: cluster.storage ?? DEFAULT_STORAGE }) };
}
