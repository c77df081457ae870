// `rollout undo` of an InPlace set on a real kube-apiserver 1.37, for every claim template the examples use
// (examples/claim-*.yaml): the revision holds the claim templates as the controller defaulted them
// (volumeMode: Filesystem, which a CRD does not add), and the CRD's rule that a template's fixed fields
// never change must not take that default for a change. --dry-run=client checks what the server would,
// --dry-run=server has the server check it; then the undo itself goes through and the set rolls back.
import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { Resources } from '../../src/api/client.js';
import { claimRequest, type KubeObject, type Pod, type StatefulSet, type StorageClass } from '../../src/api/types.js';
import { rolloutUndoCommand } from '../../src/cli/commands/rollout.js';
import type { CommandDeps } from '../../src/cli/explain/command-runner.js';
import { bufferIO } from '../../src/cli/explain/io.js';
import { StorageActor } from '../../src/cluster/storage/storage-actor.js';
import { realTimers } from '../../src/runtime/real-clock.js';
import { closeSession, uniqueName } from './cluster-session.js';
import { exampleSet, loadExample } from './examples.js';
import { e2eTest, type TestEnv } from './harness.js';

afterAll(() => closeSession());

interface Shape {
  example: string;
  set: string;
  templates: NonNullable<StatefulSet['spec']['volumeClaimTemplates']>;
  classes: StorageClass[];
}

/** Every InPlace set of the claim examples, with the StorageClasses its templates name. */
function shapes(): Shape[] {
  const files = readdirSync(new URL('../../examples/', import.meta.url)).filter((f) => /^claim-.*\.yaml$/.test(f)).sort();
  return files.flatMap((file) => {
    const example = loadExample(file);
    const classes = example.objects.filter((o): o is StorageClass => o.kind === 'StorageClass');
    return example.objects
      .filter((o): o is StatefulSet => o.kind === 'StatefulSet' && (o as StatefulSet).spec.volumeClaimUpdatePolicy === 'InPlace')
      .map((s) => ({ example: file, set: s.metadata.name ?? '', templates: s.spec.volumeClaimTemplates ?? [], classes }));
  });
}

/** `10Gi` → `20Gi`. */
const doubled = (q: string): string => q.replace(/^\d+/, (n) => String(2 * Number(n)));

async function undo(env: TestEnv, name: string, dryRun: 'none' | 'client' | 'server'): Promise<{ code: number; out: string; err: string }> {
  const deps: CommandDeps & { io: ReturnType<typeof bufferIO> } = { client: env.client, namespace: env.ns, io: bufferIO(), timers: realTimers() };
  const code = await rolloutUndoCommand(deps, name, { dryRun });
  return { code, out: deps.io.out, err: deps.io.err };
}

/** The example's classes under names of this test's own (StorageClasses are cluster-wide). */
async function createClasses(env: TestEnv, shape: Shape): Promise<Map<string, StorageClass>> {
  const renamed = new Map<string, StorageClass>();
  for (const cls of shape.classes) {
    const copy = { ...structuredClone(cls), metadata: { name: uniqueName(cls.metadata.name ?? 'class') } };
    await env.client.create(Resources.storageClasses, copy as KubeObject);
    env.onClose(() => env.client.delete(Resources.storageClasses, undefined, copy.metadata.name).catch(() => undefined));
    renamed.set(cls.metadata.name ?? '', copy);
  }
  return renamed;
}

describe('rollout undo of an InPlace set on kube-apiserver, for each claim template of the examples', () => {
  for (const shape of shapes()) {
    e2eTest(`${shape.example} (${shape.set}): undo, its client and server dry runs, and the rollback`, { timeout: 150_000, kubelet: { podStartSeconds: 0.3, podTerminationSeconds: 0.3 } }, async (env) => {
      const classes = await createClasses(env, shape);
      const storage = new StorageActor({ client: env.client, timers: realTimers(), random: Math.random, namespace: env.ns, config: { bindSeconds: 0, expansionSeconds: 1, classes: {} } });
      storage.start();
      env.onClose(() => storage.stop());
      const templates = shape.templates.map((t) => ({ ...t, spec: { ...t.spec, storageClassName: classes.get(t.spec?.storageClassName ?? '')?.metadata.name ?? '' } }));
      const set = exampleSet(loadExample(shape.example), shape.set, { namespace: env.ns, apiVersion: env.apiVersion }, { replicas: 2, volumeClaimTemplates: templates });
      const image = set.spec.template.spec.containers[0]?.image ?? '';
      await env.createConverged(set);
      // the next revision: a new image, and each claim twice as large where the class lets it grow
      const grows = (t: (typeof templates)[number]) => classes.get(shape.templates.find((x) => x.metadata?.name === t.metadata?.name)?.spec?.storageClassName ?? '')?.allowVolumeExpansion === true;
      const grown = templates.map((t) => (grows(t) ? { ...t, spec: { ...t.spec, resources: { requests: { storage: doubled(claimRequest(t) ?? '') } } } } : t));
      await env.modify(shape.set, (s) => {
        s.spec.template.spec.containers[0]!.image = `${image}-next`;
        s.spec.volumeClaimTemplates = grown;
      });
      await env.waitConverged(shape.set, 60_000);

      const qualified = `statefulset.apps.ordinal.dev/${shape.set}`;
      const kept = grown.flatMap((t, i) =>
        grows(t) ? [0, 1].map((n) => `${t.metadata?.name}-${shape.set}-${n} (${claimRequest(t)}, revision 1 had ${claimRequest(templates[i]!)})`) : [],
      );
      const keptLine = kept.length > 0 ? `claims never shrink; these keep their size: ${kept.join(', ')}\n` : '';
      assert.deepEqual(await undo(env, shape.set, 'client'), { code: 0, out: `${qualified} rolled back (dry run)\n${keptLine}`, err: '' });
      assert.deepEqual(await undo(env, shape.set, 'server'), { code: 0, out: `${qualified} rolled back (server dry run)\n${keptLine}`, err: '' });
      assert.deepEqual(await undo(env, shape.set, 'none'), { code: 0, out: `${qualified} rolled back\n${keptLine}`, err: '' });
      await env.waitForSet(shape.set, `${shape.set} back on the first template`, 60_000, (s) => s.spec.template.spec.containers[0]?.image === image || `image ${s.spec.template.spec.containers[0]?.image}`);
      await env.waitConverged(shape.set, 60_000);
      const pods = (await env.client.list<Pod>(Resources.pods, env.ns)).items;
      assert.deepEqual(pods.map((p) => p.spec.containers[0]?.image), [image, image]);
    });
  }
});
