// Wraps the controller's client: counts every API call (the benchmark's "API calls per pod replaced") and
// reports every write as it is sent, before its outcome is known (the timeline's `action` records;
// the timeline's "every write the controller sends", so fault-injected failures are included).

import { Resources, type ClusterClient, type Resource } from '../api/client.js';
import type { KubeObject } from '../api/types.js';
import type { ActionVerb } from './timeline.js';

export interface SentWrite {
  verb: ActionVerb;
  resource: Resource;
  /** True for writes through the status subresource. */
  status: boolean;
  /** Another subresource written through (pods/resize). */
  subresource?: string;
  namespace: string | undefined;
  name: string;
  /** The object sent (create/update); undefined for patch and delete. */
  object: KubeObject | undefined;
}

export interface ApiCallCounter {
  total: number;
  byVerb: Record<string, number>;
}

export const newCounter = (): ApiCallCounter => ({ total: 0, byVerb: {} });

export function recordingClient(inner: ClusterClient, counter: ApiCallCounter, onSend: (w: SentWrite) => void): ClusterClient {
  const count = (verb: string): void => {
    counter.total++;
    counter.byVerb[verb] = (counter.byVerb[verb] ?? 0) + 1;
  };
  const sent = (verb: ActionVerb, resource: Resource, status: boolean, namespace: string | undefined, name: string, object?: KubeObject, subresource?: string) =>
    onSend({ verb, resource, status, namespace, name, object, ...(subresource === undefined ? {} : { subresource }) });
  return {
    get: (res, ns, name) => (count('get'), inner.get(res, ns, name)),
    list: (res, ns, opts) => (count('list'), inner.list(res, ns, opts)),
    watch: (res, ns, rv, handlers) => (count('watch'), inner.watch(res, ns, rv, handlers)),
    create: (res, obj, opts) => {
      count('create');
      sent('create', res, false, obj.metadata.namespace, obj.metadata.name ?? obj.metadata.generateName ?? '', obj);
      return inner.create(res, obj, opts);
    },
    update: (res, obj, opts) => {
      count('update');
      sent('update', res, false, obj.metadata.namespace, obj.metadata.name ?? '', obj, opts?.subresource);
      return inner.update(res, obj, opts);
    },
    updateStatus: (res, obj) => {
      count('updateStatus');
      sent('update', res, true, obj.metadata.namespace, obj.metadata.name ?? '', obj);
      return inner.updateStatus(res, obj);
    },
    patch: (res, ns, name, merge, opts) => {
      count('patch');
      sent('patch', res, false, ns, name, undefined, opts?.subresource);
      return inner.patch(res, ns, name, merge, opts);
    },
    jsonPatch: (res, ns, name, ops, opts) => {
      count('patch');
      sent('patch', res, false, ns, name, undefined, opts?.subresource);
      return inner.jsonPatch(res, ns, name, ops, opts);
    },
    apply: (res, obj, opts) => {
      count('apply');
      // on the wire an apply is a PATCH
      sent('patch', res, false, obj.metadata.namespace, obj.metadata.name ?? '');
      return inner.apply(res, obj, opts);
    },
    delete: (res, ns, name, opts) => {
      count('delete');
      sent('delete', res, false, ns, name);
      return inner.delete(res, ns, name, opts);
    },
    evictPod: (ns, name, opts) => {
      count('evict');
      // on the wire an eviction is a POST of an Eviction to pods/NAME/eviction
      sent('create', Resources.pods, false, ns, name, undefined, 'eviction');
      return inner.evictPod(ns, name, opts);
    },
  };
}
