// `set image NAME CONTAINER=IMAGE…`: what `kubectl set image` does for Deployments, for both StatefulSet APIs.
// kubectl's own command cannot (it decodes the object into its built-in types, which do not know
// apps.ordinal.dev/v1), and a merge patch of `containers` would replace the whole list; so this sends a JSON
// patch that changes each named container's `image` by index, each index guarded by a `test` of the
// container's name, so a template that changed in between makes the API server refuse the patch instead of
// writing the wrong container.

import type { ClusterClient, JsonPatchOperation, Resource } from '../../api/client.js';
import type { Container, StatefulSet } from '../../api/types.js';
import type { CommandIO } from '../explain/io.js';
import { qualifiedName } from '../explain/set-ref.js';
import { dryRunSuffix, type DryRun } from '../rollout/dry-run.js';

export interface ImageUpdate {
  /** A container or init container name, or `*` for every one. */
  container: string;
  image: string;
}

/** Thrown for arguments that name no change or no container of the set; the message is the `error:` line. */
export class SetImageError extends Error {
  override name = 'SetImageError';
}

/** `CONTAINER=IMAGE` arguments, as kubectl reads them. */
// upstream: kubectl/pkg/cmd/set/set_image.go parseImages
export function parseImageUpdates(args: readonly string[]): ImageUpdate[] {
  if (args.length === 0) throw new SetImageError('at least one image update is required');
  return args.map((arg) => {
    const eq = arg.indexOf('=');
    if (eq <= 0 || eq === arg.length - 1) throw new SetImageError(`invalid image update "${arg}": want CONTAINER_NAME=CONTAINER_IMAGE`);
    return { container: arg.slice(0, eq), image: arg.slice(eq + 1) };
  });
}

const LISTS = ['containers', 'initContainers'] as const;

const names = (list: Container[] | undefined): string => (list ?? []).map((c) => c.name).join(', ');

/** `its containers: app, sidecar; init containers: setup`. */
function containerList(set: StatefulSet): string {
  const spec = set.spec.template.spec;
  const init = spec.initContainers?.length ? `; init containers: ${names(spec.initContainers)}` : '';
  return `its containers: ${names(spec.containers) || 'none'}${init}`;
}

/**
 * The JSON patch that gives each named container its image (none when every one already has it). Throws
 * SetImageError naming the set's containers when an update names none of them.
 */
// upstream: kubectl/pkg/cmd/set/set_image.go Run (containers and init containers by name, `*` for all)
export function imagePatch(set: StatefulSet, updates: readonly ImageUpdate[], subject: string): JsonPatchOperation[] {
  const spec = set.spec.template.spec;
  const ops: JsonPatchOperation[] = [];
  for (const { container, image } of updates) {
    let found = false;
    for (const list of LISTS) {
      (spec[list] ?? []).forEach((c, i) => {
        if (c.name !== container && container !== '*') return;
        found = true;
        if (c.image === image) return;
        const at = `/spec/template/spec/${list}/${i}`;
        ops.push({ op: 'test', path: `${at}/name`, value: c.name }, { op: 'add', path: `${at}/image`, value: image });
      });
    }
    if (!found) throw new SetImageError(`unable to find container named "${container}" in ${subject} (${containerList(set)})`);
  }
  return ops;
}

export interface SetImageArgs {
  resource: Resource;
  set: StatefulSet;
  updates: readonly ImageUpdate[];
  dryRun?: DryRun;
}

/** Sends the patch (unless a client dry run) and prints kubectl's line; exit 1 for an unknown container. */
export async function setImage(client: ClusterClient, args: SetImageArgs, io: CommandIO): Promise<number> {
  const subject = qualifiedName(args.resource, args.set.metadata.name ?? '');
  let ops: JsonPatchOperation[];
  try {
    ops = imagePatch(args.set, args.updates, subject);
  } catch (e) {
    if (!(e instanceof SetImageError)) throw e;
    io.stderr(`error: ${e.message}\n`);
    return 1;
  }
  if (ops.length === 0) {
    io.stdout(`${subject} image unchanged\n`);
    return 0;
  }
  const dryRun = args.dryRun ?? 'none';
  if (dryRun !== 'client') {
    await client.jsonPatch(args.resource, args.set.metadata.namespace ?? 'default', args.set.metadata.name ?? '', ops, { dryRun: dryRun === 'server' });
  }
  io.stdout(`${subject} image updated${dryRunSuffix(dryRun)}\n`);
  return 0;
}
