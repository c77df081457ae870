// `ordinal simulate FILE [--format text|jsonl] [--out PATH] [--report PATH.html]`: runs a scenario on the
// simulated cluster and prints its timeline. FILE is a scenario, or plain manifests (what `kubectl apply -f`
// takes) with an optional change (`--image`, `--replicas`, `--set`, `-f NEW.yaml`) from which the scenario is
// built (`--print-scenario` shows it). Exit 0: every expect held; 1: one failed (or a step could not be
// done); 2: bad file or flags, nothing run.

import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Option, type Command } from 'commander';
import { collect, parseAllocatable, parseImage, parseSet, seconds, wholeNumber } from '../explain/change-flags.js';
import { ManifestFileError, manifestDocuments, readManifestFile, readManifestText, sourceName, STDIN } from '../explain/manifest-docs.js';
import { stringify } from 'yaml';
import { renderReport } from '../../report/index.js';
import { parseScenario, scenarioFromDocument } from '../../sim/scenario.js';
import { ScenarioError } from '../../sim/scenario-fields.js';
import type { Allocatable } from '../../cluster/kubelet/resize.js';
import { DEFAULT_ALLOCATABLE, ManifestScenarioError, scenarioFromManifests, setsWithoutTemplateChange, type ManifestChange } from '../../sim/scenario-from-manifests.js';
import type { Scenario } from '../../sim/scenario-types.js';
import { TextTimeline } from '../../sim/timeline-text.js';
import { toJsonLine, type TimelineRecord } from '../../sim/timeline.js';

export interface SimulateOptions {
  format?: 'text' | 'jsonl';
  out?: string;
  report?: string;
  /** Virtual seconds: print `why` and `plan` for every set at that time (text: in the timeline; jsonl: on stderr). */
  whyAt?: string;
  /** Changes to plain manifests (not to a scenario file). */
  image?: Array<{ container: string; image: string }>;
  replicas?: number;
  set?: Array<{ path: string; value: unknown }>;
  filename?: string;
  podStartSeconds?: number;
  terminationSeconds?: number;
  /** The simulated node's allocatable (default: DEFAULT_ALLOCATABLE). */
  allocatable?: Allocatable;
  /** Print the scenario (built from manifests, or the file's) and run nothing. */
  printScenario?: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One document of kind Scenario, or one no manifest can be (no apiVersion) with a scenario's `objects` or
 * `steps`: a misspelt kind is then the scenario's error at `kind`, not an object the simulator cannot create.
 */
const isScenarioFile = (docs: readonly unknown[]): boolean => {
  const doc = docs.length === 1 ? docs[0] : undefined;
  return isObject(doc) && (doc.kind === 'Scenario' || (doc.apiVersion === undefined && ('objects' in doc || 'steps' in doc)));
};

const changeFlags = (o: SimulateOptions): string[] =>
  [
    o.image?.length ? '--image' : '',
    o.replicas !== undefined ? '--replicas' : '',
    o.set?.length ? '--set' : '',
    o.filename !== undefined ? '-f' : '',
    o.podStartSeconds !== undefined ? '--pod-start-seconds' : '',
    o.terminationSeconds !== undefined ? '--termination-seconds' : '',
    o.allocatable !== undefined ? '--allocatable' : '',
  ].filter(Boolean);

/** The scenario's name for a file: its base name, or `stdin`. */
const fileLabel = (file: string): string => basename(sourceName(file));

/**
 * The scenario to run, its YAML for --print-scenario, and the sets the change applies without a template
 * change (nothing rolls there); throws ScenarioError or ManifestScenarioError. FILE `-` is standard input.
 */
function scenarioFor(file: string, opts: SimulateOptions): { scenario: Scenario; yaml: () => string; unrolled: string[] } {
  if (file === STDIN && opts.filename === STDIN) throw new ManifestScenarioError('FILE and -f cannot both be - (standard input is read once)');
  const text = readManifestText(file);
  const docs = manifestDocuments(text, file);
  if (isScenarioFile(docs)) {
    const flags = changeFlags(opts);
    if (flags.length > 0) throw new ManifestScenarioError(`${flags.join(', ')} change plain manifests; a scenario file says its changes in its steps`);
    return { scenario: parseScenario(text, sourceName(file)), yaml: () => text, unrolled: [] };
  }
  const change: ManifestChange = {
    images: opts.image ?? [],
    set: opts.set ?? [],
    replacements: opts.filename !== undefined ? readManifestFile(opts.filename) : [],
    ...(opts.replicas !== undefined ? { replicas: opts.replicas } : {}),
  };
  const timing = {
    ...(opts.podStartSeconds !== undefined ? { podStartSeconds: opts.podStartSeconds } : {}),
    ...(opts.terminationSeconds !== undefined ? { podTerminationSeconds: opts.terminationSeconds } : {}),
    ...(opts.allocatable !== undefined ? { allocatable: opts.allocatable } : {}),
  };
  const doc = scenarioFromManifests(fileLabel(file), docs, change, timing);
  return {
    scenario: scenarioFromDocument(doc, `${sourceName(file)} (the scenario built from it: --print-scenario shows it)`),
    yaml: () => stringify(doc, { aliasDuplicateObjects: false }),
    unrolled: setsWithoutTemplateChange(doc),
  };
}

/** Says that a change without a template change replaces no pod (it would otherwise pass unnoticed). */
const unrolledNote = (sets: string[]): string =>
  `note: the change leaves the pod template of ${sets.join(', ')} as it was, so no pod is replaced: ` +
  'updateStrategy settings such as maxUnavailable act only on a template change; add one (e.g. --image CONTAINER=IMAGE, or -f NEW.yaml) to simulate a rollout under them\n';

export interface SimulateIO {
  stdout(text: string): void;
  stderr(text: string): void;
}

const processIO: SimulateIO = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** Runs the command; returns the exit code. */
export async function simulateCommand(file: string, opts: SimulateOptions, io: SimulateIO = processIO): Promise<number> {
  let scenario: Scenario;
  let yaml: () => string;
  let unrolled: string[];
  try {
    ({ scenario, yaml, unrolled } = scenarioFor(file, opts));
  } catch (e) {
    if (e instanceof ManifestScenarioError) io.stderr(`${sourceName(file)}: ${e.message}\n`);
    else if (e instanceof ManifestFileError) io.stderr(`${e.message}\n`);
    else if (e instanceof ScenarioError) io.stderr(`${e.message}\n`);
    else throw e;
    return 2;
  }
  if (opts.printScenario) {
    io.stdout(yaml());
    return 0;
  }
  if (unrolled.length > 0) io.stderr(unrolledNote(unrolled));
  const format = opts.format ?? 'text';
  const lines: string[] = [];
  const sink = opts.out ? (line: string) => lines.push(line) : bufferedWriter(io.stdout);
  const text = new TextTimeline(scenario);
  const toLine = format === 'jsonl' ? toJsonLine : (r: TimelineRecord) => text.format(r);
  const onRecord = (r: TimelineRecord) => {
    const line = toLine(r);
    if (line !== undefined) sink(line);
  };
  const whyAt = opts.whyAt === undefined ? undefined : Number(opts.whyAt);
  if (whyAt !== undefined && !(Number.isFinite(whyAt) && whyAt >= 0)) {
    io.stderr(`--why-at ${opts.whyAt}: must be a number of virtual seconds >= 0\n`);
    return 2;
  }
  // Loaded only when a scenario runs: the simulation brings in prom-client, which other commands do not need.
  const { runScenario } = await import('../../sim/runner.js');
  const { runScenarioWhyAt } = await import('../explain/why-at.js');
  const result =
    whyAt === undefined
      ? await runScenario(scenario, { onRecord })
      : await runScenarioWhyAt(scenario, { onRecord }, whyAt, (text) => (format === 'jsonl' ? io.stderr(text) : sink(text.trimEnd())));
  if (opts.out) writeFileSync(opts.out, lines.map((l) => `${l}\n`).join(''));
  else (sink as BufferedWriter).flush();
  if (opts.report) {
    writeFileSync(opts.report, renderReport(result.records, { title: scenario.name ?? fileLabel(file) }));
    io.stderr(`report written to ${opts.report}\n`);
  }
  return result.exitCode;
}

interface BufferedWriter {
  (line: string): void;
  flush(): void;
}

/** Collects lines and writes them in chunks (a write per record is slow for long timelines). */
function bufferedWriter(write: (text: string) => void): BufferedWriter {
  let buffer: string[] = [];
  const flush = () => {
    if (buffer.length) write(buffer.join(''));
    buffer = [];
  };
  const sink = ((line: string) => {
    buffer.push(`${line}\n`);
    if (buffer.length >= 500) flush();
  }) as BufferedWriter;
  sink.flush = flush;
  return sink;
}

export function register(program: Command): void {
  program
    .command('simulate')
    .description('run a scenario on the simulated cluster with virtual time and print its timeline (see scenario files in examples/)')
    .argument('<file>', 'scenario file, or plain manifests (YAML or JSON, several documents, kind: List); - reads standard input')
    .addOption(new Option('--format <format>', 'timeline format').choices(['text', 'jsonl']).default('text'))
    .option('--out <path>', 'write the timeline to this file instead of stdout')
    .option('--report <path>', 'also write a self-contained HTML report (per-pod timeline, status counters)')
    .option('--why-at <seconds>', 'also explain every StatefulSet at that virtual time, as `why` and `plan` do (text: in the timeline; jsonl: on stderr)')
    .option('--image <container=image>', 'manifests: set this container\'s image in every StatefulSet that has it (repeatable)', collect(parseImage), [])
    .option('--replicas <n>', 'manifests: set spec.replicas of every StatefulSet', wholeNumber('--replicas'))
    .option('--set <path=value>', 'manifests: set a field of every StatefulSet, e.g. spec.updateStrategy.rollingUpdate.maxUnavailable=3, spec.volumeClaimTemplates[0].spec.resources.requests.storage=20Gi, spec.template.spec.containers[name=app].resources.limits.cpu=2 (repeatable; the value is YAML)', collect(parseSet), [])
    .option('-f, --filename <file>', 'manifests: apply these objects as the change (e.g. the new version of the file); - reads standard input')
    .option('--pod-start-seconds <s>', 'manifests: seconds from a pod being scheduled to Ready (default: 1)', seconds('--pod-start-seconds'))
    .option('--termination-seconds <s>', 'manifests: seconds a deleted pod takes to go (default: 1)', seconds('--termination-seconds'))
    .option('--allocatable <cpu=Q,memory=Q>', `manifests: the simulated node's allocatable, which in-place resizes are admitted against; it holds every pod (default: cpu=${DEFAULT_ALLOCATABLE.cpu},memory=${DEFAULT_ALLOCATABLE.memory})`, parseAllocatable)
    .option('--print-scenario', 'print the scenario (the one built from manifests) and run nothing')
    .action(async (file: string, opts: SimulateOptions) => {
      process.exitCode = await simulateCommand(file, opts);
    });
}
