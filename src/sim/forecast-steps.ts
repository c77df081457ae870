// A staged rollout in a forecast. Bake times and readiness windows are simulated as the controller runs them
// (a bake counts while every updated replica stays available, so slow or failing pods lengthen it). Two gates
// wait for something a simulation cannot know, so the runs replace them and the forecast says so:
// - `pause: {}` waits for a person: the runs go on as if promoted the moment the step is reached, and the
//   forecast gives when that is; the time until you promote comes on top of every duration.
// - an HTTP analysis waits for a service: it is assumed to pass after count × interval, which the runs take
//   as a bake of that length.

import { rollingBlockName } from '../api/rollout-signals.js';
import type { RolloutStep, StatefulSet } from '../api/types.js';
import { analysisIntervalMs, gateOf, stepsOf, type StepGate } from '../controller/rollout/rollout-steps.js';
import { formatSeconds } from './format-seconds.js';
import { withSetFields } from './start-state.js';
import type { StartState } from './simulation.js';

/** One declared step, and what the forecast's runs make of its gate. */
export interface ForecastStep {
  /** 1-based, as `step 2/4`. */
  step: number;
  of: number;
  /** How far it goes: `replicas 25%`, `partition 3`. */
  target: string;
  gate: StepGate;
  /** The gate in words, and how the runs treat it when they cannot wait for it. */
  assumption: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The time an HTTP or Prometheus analysis is assumed to take: count × interval (defaults 1 and 10s, as the controller's). */
function httpSeconds(step: RolloutStep): number {
  const check = step.analysis?.http ?? step.analysis?.prometheus;
  const interval = analysisIntervalMs(check);
  return ((check?.count ?? 1) * interval) / 1000;
}

/** The step as the runs take it: a manual pause dropped (promoted at once), an HTTP analysis made a bake. */
function forecastable(step: RolloutStep): RolloutStep {
  const { pause: _pause, analysis: _analysis, ...target } = step;
  const gate = gateOf(step);
  if (gate === 'pause') return target;
  if (gate === 'http' || gate === 'prometheus') return { ...target, pause: { duration: `${httpSeconds(step)}s` } };
  return step;
}

function assumption(step: RolloutStep): string {
  switch (gateOf(step)) {
    case 'none':
      return 'no gate';
    case 'pause':
      return 'pause until promoted: counted as promoted when reached';
    case 'bake':
      return `bake ${step.pause?.duration ?? ''} while updated replicas stay available`;
    case 'readiness':
      return `readiness ${step.analysis?.readiness?.duration ?? ''} while every replica stays available`;
    case 'http':
    case 'prometheus': {
      const check = step.analysis?.http ?? step.analysis?.prometheus;
      const what = step.analysis?.http !== undefined ? `http analysis of ${step.analysis.http.url}` : 'prometheus analysis';
      return `${what}: assumed to pass after ${check?.count ?? 1} × ${check?.interval ?? '10s'} = ${formatSeconds(httpSeconds(step))}`;
    }
  }
}

/** The set's steps as a forecast reports them. */
export function forecastSteps(set: StatefulSet): ForecastStep[] {
  const steps = stepsOf(set);
  return steps.map((s, i) => ({
    step: i + 1,
    of: steps.length,
    target: s.partition !== undefined ? `partition ${s.partition}` : `replicas ${String(s.replicas)}`,
    gate: gateOf(s),
    assumption: assumption(s),
  }));
}

/** A StatefulSet object as the runs take it (a copy; anything else as it is). */
export function forecastableObject(o: unknown): unknown {
  if (!isObj(o) || o.kind !== 'StatefulSet') return o;
  const set = o as unknown as StatefulSet;
  const steps = stepsOf(set);
  if (!steps.some((s) => ['pause', 'http', 'prometheus'].includes(gateOf(s)))) return o;
  const copy = structuredClone(set);
  const block = copy.spec.updateStrategy?.[rollingBlockName(copy)];
  if (block !== undefined) block.steps = steps.map(forecastable);
  return copy;
}

/** A scenario document built from manifests with its StatefulSets, created and applied, as the runs take them. */
export function forecastableScenario(doc: Obj): Obj {
  const objects = Array.isArray(doc.objects) ? doc.objects.map(forecastableObject) : doc.objects;
  const steps = Array.isArray(doc.steps) ? doc.steps.map((s: unknown) => (isObj(s) && s.apply !== undefined ? { ...s, apply: forecastableObject(s.apply) } : s)) : doc.steps;
  return { ...doc, objects, steps };
}

/** A start state with its StatefulSets as the runs take them (a live set paused at a step goes on at once). */
export function forecastableStart(start: StartState): StartState {
  return withSetFields(start, (set) => {
    const copy = forecastableObject(set) as StatefulSet;
    return copy === (set as unknown) ? [] : [{ path: `spec.updateStrategy.${rollingBlockName(copy)}.steps`, value: stepsOf(copy) }];
  });
}
