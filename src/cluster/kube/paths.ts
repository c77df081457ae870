// REST paths of the Kubernetes API built from a `Resource` (group/version/plural/namespaced), the way
// client-go's RESTClient builds them. Nothing here knows any particular kind.

import type { Resource } from '../../api/client.js';

/** `/api/v1` for the core group, `/apis/<group>/<version>` otherwise. */
export function groupVersionPath(res: Resource): string {
  return res.group ? `/apis/${res.group}/${res.version}` : `/api/${res.version}`;
}

/**
 * The collection or object path. A namespaced resource with `namespace` undefined addresses all
 * namespaces (list and watch only); a cluster-scoped resource ignores `namespace`.
 */
export function resourcePath(res: Resource, namespace: string | undefined, name?: string, subresource?: string): string {
  let path = groupVersionPath(res);
  if (res.namespaced && namespace !== undefined) path += `/namespaces/${encodeURIComponent(namespace)}`;
  path += `/${res.plural}`;
  if (name !== undefined) path += `/${encodeURIComponent(name)}`;
  if (subresource !== undefined) path += `/${subresource}`;
  return path;
}

/** Appends a query string; undefined values are left out, keys keep the given order. */
export function withQuery(path: string, query: Record<string, string | number | boolean | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.append(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}
