// `set image NAME CONTAINER=IMAGE…` (kubectl's `set` verb; only `image` so far), for apps/v1 and
// apps.ordinal.dev/v1 StatefulSets, with kubectl's flags, messages and exit codes. The set is named as every
// command names it (NAME, TYPE/NAME or TYPE NAME); the arguments with `=` are the updates.

import type { Command } from 'commander';
import { runOnSet, withCluster, type CommandDeps } from '../explain/command-runner.js';
import { setRefText } from '../explain/set-ref.js';
import { addKubeFlags, type KubeFlags } from '../kube-flags.js';
import { dryRunOption, type DryRun } from '../rollout/dry-run.js';
import { parseImageUpdates, setImage, SetImageError, type ImageUpdate } from '../set/set-image.js';

/** `[TYPE] NAME CONTAINER=IMAGE…` → the set reference and the updates; throws SetImageError. */
export function splitSetImageArgs(args: readonly string[]): { ref: string; updates: string[] } {
  const first = args.findIndex((a) => a.includes('='));
  const refArgs = first < 0 ? [...args] : args.slice(0, first);
  const updates = first < 0 ? [] : args.slice(first);
  if (refArgs.length === 0 || refArgs.length > 2) throw new SetImageError('give the StatefulSet as NAME, TYPE/NAME or TYPE NAME, then CONTAINER=IMAGE…');
  const bad = updates.find((a) => !a.includes('='));
  if (bad !== undefined) throw new SetImageError(`invalid image update "${bad}": want CONTAINER_NAME=CONTAINER_IMAGE`);
  return { ref: setRefText(refArgs[0] ?? '', refArgs[1]), updates };
}

/** Finds the set and sets the images; exit 1 when the set or a container is not found, or the API refuses. */
export function setImageCommand(deps: CommandDeps, ref: string, updates: readonly ImageUpdate[], opts: { dryRun?: DryRun } = {}): Promise<number> {
  return runOnSet(deps, ref, ({ resource, set }) => setImage(deps.client, { resource, set, updates, dryRun: opts.dryRun ?? 'none' }, deps.io));
}

export function register(program: Command): void {
  const set = program.command('set').description('change a StatefulSet (apps/v1 or apps.ordinal.dev/v1) as kubectl set does');
  addKubeFlags(
    set
      .command('image')
      .description('set container images of the pod template (a JSON patch by index: the other containers stay as they are)')
      .argument('<args...>', 'NAME, TYPE/NAME or TYPE NAME, then CONTAINER=IMAGE … (CONTAINER * for every container)'),
  )
    .addOption(dryRunOption())
    .action(async (args: string[], opts: { dryRun?: DryRun } & KubeFlags, cmd: Command) => {
      let parsed: { ref: string; updates: ImageUpdate[] };
      try {
        const split = splitSetImageArgs(args);
        parsed = { ref: split.ref, updates: parseImageUpdates(split.updates) };
      } catch (e) {
        if (!(e instanceof SetImageError)) throw e;
        cmd.error(`error: ${e.message}`); // a usage error: one line and where to find help, exit 1
      }
      process.exitCode = await withCluster(opts, (deps) => setImageCommand(deps, parsed.ref, parsed.updates, opts));
    });
}
