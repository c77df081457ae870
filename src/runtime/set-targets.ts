// Which StatefulSet resources the controller reconciles (native apps/v1, the CRD, or both), their work
// queue keys (`namespace/name`, as upstream; prefixed with the API group only when both are served, so
// a native and a CRD set of the same name stay apart) and owner-reference resolution.

import { apiVersionOf, Resources, type Resource } from '../api/client.js';
import type { OwnerReference, StatefulSet } from '../api/types.js';
import type { Informer } from './informer.js';

export type ControllerTarget = 'crd' | 'native' | 'both';

export interface SetTarget {
  resource: Resource;
  informer: Informer<StatefulSet>;
  /** '' when this is the only target, else the resource's API group. */
  tag: string;
}

export interface SetKey {
  target: SetTarget;
  namespace: string;
  name: string;
}

export function resourcesFor(target: ControllerTarget): Resource[] {
  if (target === 'native') return [Resources.statefulSets];
  if (target === 'crd') return [Resources.ordinalStatefulSets];
  return [Resources.statefulSets, Resources.ordinalStatefulSets];
}

export { controllerRefOf } from '../api/controller-ref.js';

export class SetTargets {
  constructor(readonly all: readonly SetTarget[]) {}

  keyOf(target: SetTarget, namespace: string | undefined, name: string | undefined): string {
    const base = `${namespace ?? ''}/${name ?? ''}`;
    return target.tag ? `${target.tag}:${base}` : base;
  }

  parse(key: string): SetKey | undefined {
    const colon = key.indexOf(':');
    const tag = colon >= 0 ? key.slice(0, colon) : '';
    const rest = colon >= 0 ? key.slice(colon + 1) : key;
    const slash = rest.indexOf('/');
    const target = this.all.find((t) => t.tag === tag);
    if (target === undefined || slash < 0) return undefined;
    return { target, namespace: rest.slice(0, slash), name: rest.slice(slash + 1) };
  }

  /** The key of the watched set that `ref` points to, when it exists in the cache with that UID. */
  // upstream: stateful_set.go resolveControllerRef
  resolve(namespace: string | undefined, ref: OwnerReference | undefined): string | undefined {
    if (ref === undefined) return undefined;
    const target = this.all.find((t) => apiVersionOf(t.resource) === ref.apiVersion && t.resource.kind === ref.kind);
    const set = target?.informer.get(namespace, ref.name);
    if (target === undefined || set === undefined || set.metadata.uid !== ref.uid) return undefined;
    return this.keyOf(target, namespace, ref.name);
  }

  /** Every watched set in `namespace` (undefined: in every namespace) with its key, sorted by target then name. */
  setsIn(namespace: string | undefined): { key: string; set: StatefulSet; target: SetTarget }[] {
    return this.all.flatMap((target) =>
      target.informer.list(namespace).map((set) => ({
        key: this.keyOf(target, set.metadata.namespace, set.metadata.name),
        set,
        target,
      })),
    );
  }
}
