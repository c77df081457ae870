// Which StatefulSet a command is about: `web` (either API), or qualified as kubectl spells it, as TYPE/NAME
// or TYPE NAME — `statefulset.apps/web`, `sts web` (apps/v1) or `statefulset.apps.ordinal.dev/web`,
// `osts/web` (the CRD).

import type { Command } from 'commander';
import { Resources, type ClusterClient, type Resource } from '../../api/client.js';
import { isNotFound } from '../../api/errors.js';
import type { StatefulSet } from '../../api/types.js';

export interface SetRef {
  name: string;
  /** The resources to look in, preferred first. */
  resources: Resource[];
}

export interface FoundSet {
  resource: Resource;
  set: StatefulSet;
}

export class SetRefError extends Error {
  override name = 'SetRefError';
}

const NATIVE = ['statefulset', 'statefulsets', 'sts', 'statefulset.apps', 'statefulsets.apps'];
const CRD = ['osts', 'statefulset.apps.ordinal.dev', 'statefulsets.apps.ordinal.dev'];

/** The arguments every command about one set takes: NAME, TYPE/NAME, or TYPE NAME (kubectl's forms). */
export function addSetArguments<C extends Command>(cmd: C, optional = false): C {
  const help = 'NAME, TYPE/NAME or TYPE NAME; TYPE statefulset, sts, statefulset.apps (apps/v1) or osts, statefulset.apps.ordinal.dev';
  return cmd
    .argument(optional ? '[name]' : '<name>', help)
    .argument('[name2]', 'the NAME when the first argument is a TYPE');
}

/** `statefulset web` → `statefulset/web`; a lone argument as it is. */
export const setRefText = (first: string, name: string | undefined): string => (name === undefined ? first : `${first}/${name}`);

export function parseSetRef(text: string): SetRef {
  const slash = text.indexOf('/');
  if (slash < 0) return { name: text, resources: [Resources.ordinalStatefulSets, Resources.statefulSets] };
  const type = text.slice(0, slash).toLowerCase();
  const name = text.slice(slash + 1);
  if (!name) throw new SetRefError(`${text}: missing a name after the slash`);
  if (NATIVE.includes(type)) return { name, resources: [Resources.statefulSets] };
  if (CRD.includes(type)) return { name, resources: [Resources.ordinalStatefulSets] };
  throw new SetRefError(`${text}: not a StatefulSet (use NAME, statefulset.apps/NAME, sts NAME or statefulset.apps.ordinal.dev/NAME)`);
}

/** `statefulset.apps/web`, `statefulset.apps.ordinal.dev/web`: how kubectl names an object in messages. */
export const qualifiedName = (resource: Resource, name: string): string =>
  `${resource.kind.toLowerCase()}${resource.group ? `.${resource.group}` : ''}/${name}`;

/** `statefulsets.apps "web" not found`, kubectl's wording. */
export const notFoundMessage = (ref: SetRef): string =>
  `${ref.resources.map((r) => `${r.plural}${r.group ? `.${r.group}` : ''}`).join(' or ')} "${ref.name}" not found`;

async function tryGet(client: ClusterClient, resource: Resource, namespace: string, name: string): Promise<FoundSet | undefined> {
  try {
    return { resource, set: await client.get<StatefulSet>(resource, namespace, name) };
  } catch (e) {
    if (isNotFound(e)) return undefined; // also what a server without the CRD answers
    throw e;
  }
}

/** Gets the set; a bare name found under both APIs is ambiguous (SetRefError), found under none is SetRefError. */
export async function findSet(client: ClusterClient, namespace: string, ref: SetRef): Promise<FoundSet> {
  const found = (await Promise.all(ref.resources.map((r) => tryGet(client, r, namespace, ref.name)))).filter(
    (f): f is FoundSet => f !== undefined,
  );
  if (found.length > 1) {
    const names = found.map((f) => qualifiedName(f.resource, ref.name)).join(' and ');
    throw new SetRefError(`both ${names} exist in namespace ${namespace}; name one of them`);
  }
  const first = found[0];
  if (first === undefined) throw new SetRefError(notFoundMessage(ref));
  return first;
}
