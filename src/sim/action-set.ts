// Which StatefulSet a controller write concerns (the `set` field of `action` records).

import { Resources } from '../api/client.js';
import type { KubeEvent, KubeObject, Pod } from '../api/types.js';
import type { SentWrite } from './recording-client.js';
import type { SimState } from './state.js';

function ownerSet(obj: KubeObject | undefined): string | undefined {
  return obj?.metadata.ownerReferences?.find((r) => r.controller && r.kind === 'StatefulSet')?.name;
}

function setOfPodNamed(state: SimState, namespace: string, name: string): string | undefined {
  const pod = state.pods.get(`${namespace}/${name}`);
  const key = pod ? state.setOfPod(pod) : undefined;
  return key ? state.sets.get(key)?.set.metadata.name : undefined;
}

export function actionSet(w: SentWrite, state: SimState): string | null {
  const ns = w.namespace ?? 'default';
  const res = w.resource;
  if (res.kind === 'StatefulSet') return w.name;
  if (res === Resources.pods) {
    const key = w.object ? state.setOfPod(w.object as Pod) : undefined;
    return (key ? state.sets.get(key)?.set.metadata.name : undefined) ?? setOfPodNamed(state, ns, w.name) ?? null;
  }
  if (res === Resources.events) return eventSet(w, ns, state);
  if (res === Resources.controllerRevisions) {
    return ownerSet(w.object) ?? (w.name.includes('-') ? w.name.slice(0, w.name.lastIndexOf('-')) : null);
  }
  if (res === Resources.persistentVolumeClaims) return ownerSet(w.object) ?? state.claimOwner(ns, w.name)?.set ?? null;
  return ownerSet(w.object) ?? null;
}

/** Events name their object (`<object>.<suffix>`), so a patch that bumps a count can be attributed too. */
function eventSet(w: SentWrite, ns: string, state: SimState): string | null {
  const involved = (w.object as KubeEvent | undefined)?.involvedObject;
  const name = involved?.name ?? (w.name.includes('.') ? w.name.slice(0, w.name.lastIndexOf('.')) : '');
  if (involved?.kind === 'Pod') return setOfPodNamed(state, ns, name) ?? null;
  if (involved?.kind === 'StatefulSet' || state.findSet(ns, name)) return name;
  return setOfPodNamed(state, ns, name) ?? null;
}
