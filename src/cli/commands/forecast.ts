// `forecast NAME [--image C=I | -f NEW.yaml | --set P=V]`: how long a rollout of a live set will take and how
// low its availability will go, from the set's own pods' durations (learned-durations.ts) replayed on the
// simulated cluster many times, for its current strategy and candidate settings. Offline, without NAME:
// `forecast -f MANIFEST --image …` with durations from `--pod-start-seconds` and `--termination-seconds`.
// `--fail-at ORDINAL` / `--fail BEHAVIOUR`: the release fails there, and a set with onFailure: Rollback shows
// when that is detected and how long and how low its way back goes.
// Exit 0 with the forecast; 1: the set or cluster cannot be read, or no run converged; 2: bad input.

import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Option, type Command } from 'commander';
import { apiVersionOf, Resources } from '../../api/client.js';
import { loadYamlDocuments } from '../../api/yaml-loader.js';
import { selectorMatches } from '../../api/labels.js';
import type { Pod, StatefulSet } from '../../api/types.js';
import { defaultCandidates, SETTINGS, settingCandidate, type Candidate, type Setting } from '../../sim/forecast-candidates.js';
import type { LearnedSeconds } from '../../sim/learned-durations.js';
import { FieldPathError, parseFieldPath } from '../../sim/field-path.js';
import { describeChange, ManifestScenarioError, setPath, type FailureBehavior, type ManifestChange, type ReleaseFailure } from '../../sim/scenario-from-manifests.js';
import { onFailureOf } from '../../controller/rollout/effective-strategy.js';
import { startOrdinal } from '../../controller/model/spec.js';
import { ScenarioError } from '../../sim/scenario-fields.js';
import { runOnSet, withCluster, type CommandDeps } from '../explain/command-runner.js';
import { forecastData, renderForecast, type ForecastView } from '../explain/forecast-report.js';
import { processIO, type CommandIO } from '../explain/io.js';
import { outputOption, structured, type OutputFormat } from '../explain/output-format.js';
import { addSetArguments, qualifiedName, setRefText } from '../explain/set-ref.js';
import { addKubeFlags, type KubeFlags } from '../kube-flags.js';
import { ownedBy } from '../rollout/rollout-status.js';
import { assignmentAt, collect, parseImage, parseSet, secondsList, wholeNumber } from '../explain/change-flags.js';
import { ManifestFileError, readManifestFile } from '../explain/manifest-docs.js';
import { learnLiveDurations } from '../explain/live-durations.js';
import { learnHookSeconds } from '../explain/hook-durations.js';
import { observedStart, podNodes, type ObservedStart } from '../explain/observed-start.js';

export interface ForecastOptions {
  image?: Array<{ container: string; image: string }>;
  set?: Array<{ path: string; value: unknown }>;
  replicas?: number;
  filename?: string;
  podStartSeconds?: number[];
  terminationSeconds?: number[];
  /** spec.lifecycle.preUpdate: seconds a hook takes to pass. */
  hookSeconds?: number[];
  /** Settings to compare instead of the default candidates; `candidates: false` compares none. */
  candidate?: string[];
  candidates?: boolean;
  runs?: number;
  seed?: number;
  output?: OutputFormat;
  report?: string;
  /** The release fails: how (default ImagePullBackOff) and on which ordinal (default the lowest, the longest way back). */
  fail?: FailureBehavior;
  failAt?: number;
}

/** `maxUnavailable=2`, `batchStartPolicy=Together`, `podManagementPolicy=Parallel`, `podUpdatePolicy=InPlaceIfPossible`, or a dotted path. */
export function parseCandidate(text: string, set: StatefulSet): Candidate {
  const eq = assignmentAt(text);
  if (eq <= 0) throw new ForecastInputError(`--candidate ${text}: want SETTING=VALUE (maxUnavailable=2, batchStartPolicy=Together, podManagementPolicy=Parallel, podUpdatePolicy=InPlaceIfPossible or a dotted path)`);
  const key = text.slice(0, eq);
  const value = loadYamlDocuments(text.slice(eq + 1))[0] ?? null;
  if ((SETTINGS as readonly string[]).includes(key)) return settingCandidate(key as Setting, value, set);
  if (key.startsWith('spec.')) {
    try {
      parseFieldPath(key);
    } catch (e) {
      if (e instanceof FieldPathError) throw new ForecastInputError(`--candidate ${e.message}`);
      throw e;
    }
    return { label: `${key} ${String(value)}`, set: [{ path: key, value }] };
  }
  throw new ForecastInputError(`--candidate ${text}: unknown setting "${key}"`);
}

export class ForecastInputError extends Error {
  override name = 'ForecastInputError';
}

const given = (flag: number[] | undefined, source: string): LearnedSeconds | undefined => (flag === undefined ? undefined : { samples: flag, source });

/**
 * With `--fail` or `--fail-at`, the failure the forecast injects: the set (after the change) must roll back by
 * itself and have that ordinal. Without onFailure: Rollback a failed release halts until someone acts, so it has
 * no way back to forecast: refused rather than forecast as a rollout that never ends.
 */
function releaseFailure(subject: string, set: StatefulSet, change: ManifestChange, opts: ForecastOptions): ReleaseFailure | undefined {
  if (opts.fail === undefined && opts.failAt === undefined) return undefined;
  const after = structuredClone(set);
  for (const s of change.set) setPath(after as unknown as Record<string, unknown>, s.path, s.value);
  if (change.replicas !== undefined) after.spec.replicas = change.replicas;
  const flag = opts.failAt !== undefined ? '--fail-at' : '--fail';
  if (onFailureOf(after) !== 'Rollback') {
    throw new ForecastInputError(`${flag}: ${subject} does not roll back by itself (spec.updateStrategy.${after.spec.updateStrategy?.type === 'EnforcedRollingUpdate' ? 'enforcedRollingUpdate' : 'rollingUpdate'}.onFailure is not Rollback, an apps.ordinal.dev/v1 field): a failed release halts where it broke until someone acts, so there is no way back to forecast`);
  }
  const first = startOrdinal(after);
  const last = first + (after.spec.replicas ?? 1) - 1;
  const ordinal = opts.failAt ?? first;
  if (ordinal < first || ordinal > last) throw new ForecastInputError(`--fail-at ${ordinal}: ${subject} has ordinals ${first}–${last}`);
  return { behavior: opts.fail ?? 'ImagePullBackOff', ordinal };
}

/** The change the flags give (and the failure of the release, if asked for); refused when there is nothing to forecast. */
function changeToForecast(subject: string, set: StatefulSet, opts: ForecastOptions, replacements: unknown[]): ManifestChange {
  const change: ManifestChange = {
    images: opts.image ?? [],
    set: opts.set ?? [],
    replacements,
    ...(opts.replicas !== undefined ? { replicas: opts.replicas } : {}),
  };
  if (change.images.length === 0 && change.set.length === 0 && change.replacements.length === 0 && change.replicas === undefined) {
    throw new ForecastInputError('nothing to forecast: give the change (--image CONTAINER=IMAGE, -f NEW.yaml, --set PATH=VALUE or --replicas N)');
  }
  if (set.spec.updateStrategy?.type === 'OnDelete') throw new ForecastInputError(`${subject} uses OnDelete: the controller replaces a pod only when you delete it, so there is no rollout to forecast`);
  const failure = releaseFailure(subject, set, change, opts);
  return failure === undefined ? change : { ...change, failure };
}

/** A hooked set's hook cost: `--hook-seconds`, else what its pods' records say (or the default); none without a hook. */
function hookSecondsOf(set: StatefulSet, opts: ForecastOptions, pods: readonly Pod[]): LearnedSeconds | undefined {
  const learned = learnHookSeconds(set, pods);
  if (learned === undefined) {
    if (opts.hookSeconds !== undefined) throw new ForecastInputError('--hook-seconds: the set has no spec.lifecycle.preUpdate hook');
    return undefined;
  }
  return given(opts.hookSeconds, '--hook-seconds') ?? learned;
}

/** Runs the forecast for `set` as it is (manifests) with the durations, and prints it. */
async function forecastSet(
  subject: string,
  set: StatefulSet,
  manifests: unknown[],
  durations: { start: LearnedSeconds; termination: LearnedSeconds; hook?: LearnedSeconds | undefined },
  opts: ForecastOptions,
  replacements: unknown[],
  io: CommandIO,
  observed?: ObservedStart,
): Promise<number> {
  const change = changeToForecast(subject, set, opts, replacements);
  if (durations.start.samples.length === 0) throw new ForecastInputError(`${subject} has no Ready pod to learn start times from: give --pod-start-seconds`);
  // Loaded only now: the simulation brings in prom-client.
  const [{ forecastRollout }, { StartStateError }] = await Promise.all([import('../../sim/forecast.js'), import('../../sim/start-state.js')]);
  const candidates = opts.candidates === false ? [] : opts.candidate?.length ? opts.candidate.map((c) => parseCandidate(c, set)) : defaultCandidates(set);
  const runs = opts.runs ?? 20;
  const seed = opts.seed ?? 1;
  let results;
  try {
    results = await forecastRollout({
      name: subject,
      manifests,
      change,
      start: { samples: durations.start.samples },
      termination: { samples: durations.termination.samples },
      runs,
      seed,
      candidates,
      ...(observed ? { from: observed.from } : {}),
      ...(observed?.expansion ? { expansion: { samples: observed.expansion.samples } } : {}),
      ...(durations.hook ? { hook: { samples: durations.hook.samples } } : {}),
    });
  } catch (e) {
    if (!(e instanceof StartStateError)) throw e;
    io.stderr(`error: ${e.message}\n`);
    return 1;
  }
  const view: ForecastView = {
    subject,
    change: describeChange(change),
    replicas: change.replicas ?? set.spec.replicas ?? 1,
    runs,
    seed,
    ...durations,
    results,
    ...(change.failure ? { failure: { behavior: change.failure.behavior, pod: `${set.metadata.name ?? ''}-${change.failure.ordinal}` } } : {}),
  };
  if (opts.output === 'json' || opts.output === 'yaml') io.stdout(structured(forecastData(view), opts.output));
  else io.stdout(renderForecast(view));
  if (opts.report !== undefined) {
    const { renderReport } = await import('../../report/index.js');
    writeFileSync(opts.report, renderReport((await results[0]?.medianRecords()) ?? [], { title: `Forecast for ${subject}: ${view.change} (median run)` }));
    io.stderr(`report of the median run written to ${opts.report}\n`);
  }
  return results[0]?.converged ? 0 : 1;
}

/** Input errors exit 2 with one line; anything else is the command runner's. */
async function reportingInputErrors(io: CommandIO, fn: () => Promise<number>): Promise<number> {
  try {
    return await fn();
  } catch (e) {
    if (!(e instanceof ForecastInputError || e instanceof ManifestScenarioError || e instanceof ScenarioError || e instanceof ManifestFileError)) throw e;
    io.stderr(`error: ${e.message.split('\n').join(' ')}\n`);
    return 2;
  }
}

/** The live set: its pods' start times and the controller's events teach the durations. */
export function forecastCommand(deps: CommandDeps, name: string, opts: ForecastOptions): Promise<number> {
  return runOnSet(deps, name, ({ resource, set }) =>
    reportingInputErrors(deps.io, async () => {
      const ns = set.metadata.namespace ?? 'default';
      const pods = (await deps.client.list<Pod>(Resources.pods, ns)).items.filter((p) => ownedBy(set)(p) && selectorMatches(set.spec.selector, p.metadata.labels ?? {}));
      const learned = await learnLiveDurations(deps.client, set, pods);
      const durations = {
        start: given(opts.podStartSeconds, '--pod-start-seconds') ?? learned.start,
        termination: given(opts.terminationSeconds, '--termination-seconds') ?? learned.termination,
        hook: hookSecondsOf(set, opts, pods),
      };
      const replacements = opts.filename !== undefined ? readManifestFile(opts.filename) : [];
      const live = { ...set, apiVersion: apiVersionOf(resource), kind: 'StatefulSet' };
      // Every run starts from the set as the cluster holds it.
      // a set that moves by zone runs on its pods' nodes, so the zone order shows
      const nodes = await podNodes(deps.client, live, pods);
      const observed = await observedStart(deps.client, resource, live, pods, deps.timers.now(), nodes);
      return forecastSet(qualifiedName(resource, set.metadata.name ?? ''), set, [...nodes, live], durations, opts, replacements, deps.io, observed);
    }),
  );
}

/** Offline: the manifest's one StatefulSet, durations from the flags (default 1 s each). */
export function forecastManifestCommand(file: string, opts: ForecastOptions, io: CommandIO = processIO): Promise<number> {
  return reportingInputErrors(io, async () => {
    const manifests = readManifestFile(file);
    const sets = manifests.filter((m): m is StatefulSet => (m as { kind?: string } | null)?.kind === 'StatefulSet');
    if (sets.length !== 1) throw new ForecastInputError(`${file}: a forecast takes one StatefulSet; the file has ${sets.length}`);
    const durations = {
      start: given(opts.podStartSeconds, '--pod-start-seconds') ?? { samples: [1], source: 'the default; give --pod-start-seconds' },
      termination: given(opts.terminationSeconds, '--termination-seconds') ?? { samples: [1], source: 'the default; give --termination-seconds' },
      hook: hookSecondsOf(sets[0] as StatefulSet, opts, []),
    };
    return forecastSet(basename(file), sets[0] as StatefulSet, manifests, durations, opts, [], io);
  });
}

export function register(program: Command): void {
  addKubeFlags(
    addSetArguments(
      program
        .command('forecast')
        .description('forecast a rollout: its duration (p5/p50/p95), lowest availability and batches, for the current setting and candidates, on the simulated cluster with the durations this set\'s pods showed'),
      true,
    ),
  )
    .option('--image <container=image>', 'the change: that container\'s new image (repeatable)', collect(parseImage), [])
    .option('--set <path=value>', 'the change: a field of the set by its path, list elements by [N] or [FIELD=VALUE] (spec.template.spec.containers[name=app].resources.limits.cpu=2), the value read as YAML (repeatable)', collect(parseSet), [])
    .option('--replicas <n>', 'the change: spec.replicas', wholeNumber('--replicas'))
    .option('-f, --filename <file>', 'with NAME: the new version of the set (the change); without NAME: the manifest to forecast, offline')
    .option('--pod-start-seconds <s>', 'seconds from creation to Ready, one or comma-separated samples (default: learned from the set\'s pods)', secondsList('--pod-start-seconds'))
    .option('--termination-seconds <s>', 'seconds a deleted pod takes to go, one or comma-separated samples (default: learned from the controller\'s events, else the grace period)', secondsList('--termination-seconds'))
    .option('--hook-seconds <s>', 'seconds a spec.lifecycle.preUpdate hook takes to pass, one or comma-separated samples (default: what the pods\' hook records say)', secondsList('--hook-seconds'))
    .option('--candidate <setting=value>', 'compare this setting instead of the default candidates: maxUnavailable=2, batchStartPolicy=Together, podManagementPolicy=Parallel or a dotted path (repeatable)', collect(String), [])
    .option('--no-candidates', 'forecast the current setting only')
    .option('--runs <n>', 'simulated runs per setting', wholeNumber('--runs', 1), 20)
    .option('--seed <n>', 'seed of the first run (run k uses seed + k)', wholeNumber('--seed'), 1)
    .addOption(new Option('--fail <behavior>', 'the release fails so, for a set with onFailure: Rollback: forecast when that is detected and the way back; ImagePullBackOff with --fail-at alone').choices(['ImagePullBackOff', 'CrashLoopBackOff']))
    .option('--fail-at <ordinal>', 'the release fails on this ordinal\'s pod only; with --fail alone, the lowest ordinal (the longest way back)', wholeNumber('--fail-at'))
    .addOption(outputOption())
    .option('--report <file>', 'also write the HTML report of the current setting\'s median run')
    .action(async (first: string | undefined, second: string | undefined, opts: ForecastOptions & KubeFlags) => {
      if (first === undefined) {
        if (opts.filename === undefined) {
          process.stderr.write("error: give NAME (a live set) or -f MANIFEST (offline)\nSee 'ordinal forecast --help' for usage.\n");
          process.exitCode = 1;
          return;
        }
        process.exitCode = await forecastManifestCommand(opts.filename, opts);
        return;
      }
      process.exitCode = await withCluster(opts, (deps) => forecastCommand(deps, setRefText(first, second), opts));
    });
}
