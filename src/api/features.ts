// Feature gates under upstream's names: a plain value passed into defaulting, validation
// and the planner, never a global. Ordinal turns every gate on; turning one off reproduces that upstream
// behaviour.

export interface FeatureGateInfo {
  /** Ordinal's default. */
  default: boolean;
  /** Upstream's default in Kubernetes 1.37 and where the gate comes from. */
  upstream: string;
}

export const FEATURE_GATES = {
  MaxUnavailableStatefulSet: {
    default: true,
    upstream: 'beta, on in 1.37 (KEP-961; off in 1.35.4/1.36 because of #137409, fixed by #137666)',
  },
  StatefulSetRecreateStrategy: { default: true, upstream: 'alpha, off in 1.37 (KEP-3541, #137187)' },
  StatefulSetSemanticRevisionComparison: { default: true, upstream: 'on since 1.34.x/1.35 (#135017)' },
  StaleControllerConsistencyStatefulSet: { default: true, upstream: 'beta, on in 1.36 (KEP-5647, #137254)' },
  EnforcedRollingUpdateInStatefulSet: { default: true, upstream: 'Ordinal only (the first KEP-3541 design)' },
  StatefulSetMinReadySeconds: { default: true, upstream: 'GA 1.25 (KEP-2599); locked on' },
  StatefulSetStartOrdinal: { default: true, upstream: 'GA 1.31 (KEP-3335); locked on' },
  StatefulSetAutoDeletePVC: { default: true, upstream: 'GA 1.32 (KEP-1847); locked on' },
  PodIndexLabel: { default: true, upstream: 'GA 1.32 (KEP-4017); locked on' },
} as const satisfies Record<string, FeatureGateInfo>;

export type FeatureGate = keyof typeof FEATURE_GATES;
export type Features = Readonly<Record<FeatureGate, boolean>>;

/** GA gates upstream locks to true; setting them false is an error there too. */
const LOCKED_ON: ReadonlySet<FeatureGate> = new Set([
  'StatefulSetMinReadySeconds',
  'StatefulSetStartOrdinal',
  'StatefulSetAutoDeletePVC',
  'PodIndexLabel',
]);

export function isFeatureGate(name: string): name is FeatureGate {
  return Object.prototype.hasOwnProperty.call(FEATURE_GATES, name);
}

export function defaultFeatures(): Features {
  const out = {} as Record<FeatureGate, boolean>;
  for (const name of Object.keys(FEATURE_GATES) as FeatureGate[]) out[name] = FEATURE_GATES[name].default;
  return out;
}

/** Upstream Kubernetes 1.37's defaults: Recreate off, everything else as shipped. */
export function upstream137Features(): Features {
  return { ...defaultFeatures(), StatefulSetRecreateStrategy: false, EnforcedRollingUpdateInStatefulSet: false };
}

export class FeatureGateError extends Error {
  override name = 'FeatureGateError';
}

/** Applies overrides (from a scenario file or flags) on top of `base`; throws FeatureGateError naming the gate. */
export function withFeatures(base: Features, overrides: Record<string, boolean>): Features {
  const out: Record<string, boolean> = { ...base };
  for (const [name, value] of Object.entries(overrides)) {
    if (!isFeatureGate(name)) {
      throw new FeatureGateError(`unrecognized feature gate: ${name} (known: ${Object.keys(FEATURE_GATES).join(', ')})`);
    }
    if (typeof value !== 'boolean') throw new FeatureGateError(`feature gate ${name}: value must be true or false`);
    if (!value && LOCKED_ON.has(name)) {
      throw new FeatureGateError(`cannot set feature gate ${name} to false, feature is locked to true`);
    }
    out[name] = value;
  }
  return out as Features;
}

/** Parses `--feature-gates=A=true,B=false` (the flag's value, as in kube-controller-manager). */
export function parseFeatureGates(spec: string, base: Features = defaultFeatures()): Features {
  const overrides: Record<string, boolean> = {};
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const eq = part.indexOf('=');
    if (eq < 0) throw new FeatureGateError(`missing bool value for ${part}`);
    const name = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim().toLowerCase();
    if (raw !== 'true' && raw !== 'false') {
      throw new FeatureGateError(`invalid value of ${name}=${part.slice(eq + 1)}, err: must be true or false`);
    }
    overrides[name] = raw === 'true';
  }
  return withFeatures(base, overrides);
}
