// `forecast` of apps.ordinal.dev/v1 sets with claim templates, live on kube-apiserver: every claim example's set
// (examples/*.yaml with volumeClaimTemplates) is created at once under `ordinal controller`, with the storage
// actor binding and expanding its claims, and forecast for an image change; the sets that grow their claims
// in place are forecast for a larger claim template too. kube-apiserver stores a CRD's claim templates as
// written (no status, no volumeMode): every run used to fail on the change (`volumeClaimTemplates[0].status …
// field is immutable`, shown only in the --report HTML). A growth the class refuses cannot converge, and the
// terminal says why.

import { readdirSync } from 'node:fs';
import { after as afterAll, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Resources } from '../../src/api/client.js';
import type { KubeObject, StatefulSet } from '../../src/api/types.js';
import { forecastCommand } from '../../src/cli/commands/forecast.js';
import { bufferIO } from '../../src/cli/explain/io.js';
import { StorageActor } from '../../src/cluster/storage/storage-actor.js';
import { realTimers } from '../../src/runtime/real-clock.js';
import { closeSession, uniqueName } from './cluster-session.js';
import { exampleSet, loadExample, renamed } from './examples.js';
import { e2eTest } from './harness.js';

afterAll(() => closeSession());

interface ClaimSet {
  set: StatefulSet;
  /** Its claims grow in place on a class that allows it. */
  grows: boolean;
  /** Its class refuses to grow claims. */
  refused: boolean;
}

type Setting = { runs: number; converged: number; note?: string };

const CLAIM_EXAMPLES = readdirSync(new URL('../../examples/', import.meta.url)).filter((f) => f.endsWith('.yaml')).sort();

/** Every claim example's sets, renamed apart, in `ns`, their classes renamed to this run's (`classes`: old → new, expansion allowed). */
function claimSets(ns: string, classes: Map<string, { name: string; expands: boolean }>): ClaimSet[] {
  return CLAIM_EXAMPLES.flatMap((file) => {
    const example = loadExample(file);
    for (const o of example.objects.filter((x) => x.kind === 'StorageClass')) {
      if (!classes.has(o.metadata.name ?? '')) classes.set(o.metadata.name ?? '', { name: uniqueName(o.metadata.name ?? 'class'), expands: (o as { allowVolumeExpansion?: boolean }).allowVolumeExpansion === true });
    }
    return example.objects
      .filter((o) => o.kind === 'StatefulSet' && (o as StatefulSet).spec.volumeClaimTemplates?.length)
      .map((o) => {
        const set = renamed(exampleSet(example, o.metadata.name ?? '', { namespace: ns, apiVersion: 'apps.ordinal.dev/v1' }), `${file.replace(/\.yaml$/, '').slice(0, 24)}-${o.metadata.name}`);
        set.spec.replicas = Math.min(set.spec.replicas ?? 1, 2);
        const klass = classes.get(set.spec.volumeClaimTemplates?.[0]?.spec?.storageClassName ?? '');
        for (const t of set.spec.volumeClaimTemplates ?? []) if (klass && t.spec) t.spec.storageClassName = klass.name;
        const inPlace = set.spec.volumeClaimUpdatePolicy === 'InPlace';
        return { set, grows: inPlace && klass?.expands === true, refused: inPlace && klass !== undefined && !klass.expands };
      });
  });
}

/** The claim templates with every request doubled (10Gi → 20Gi). */
const grown = (set: StatefulSet): unknown =>
  (set.spec.volumeClaimTemplates ?? []).map((t) => {
    const storage = String(t.spec?.resources?.requests?.['storage'] ?? '1Gi');
    const [, n = '1', unit = 'Gi'] = /^(\d+)(\D*)$/.exec(storage) ?? [];
    return { ...t, spec: { ...t.spec, resources: { ...t.spec?.resources, requests: { ...t.spec?.resources?.requests, storage: `${Number(n) * 2}${unit}` } } } };
  });

describe('forecast of claim sets on kube-apiserver (apps.ordinal.dev/v1)', () => {
  e2eTest('every claim example\'s set forecasts an image change, and a claim growth when its class allows one; a refused growth says why', {
    timeout: 240_000,
    kubelet: { podStartSeconds: 0.3, podTerminationSeconds: 0.3, images: {} },
  }, async (env) => {
    const classes = new Map<string, { name: string; expands: boolean }>();
    const sets = claimSets(env.ns, classes);
    assert.ok(sets.length >= 10 && sets.some((s) => s.grows) && sets.some((s) => s.refused), `${sets.length} claim sets`);
    for (const { name, expands } of classes.values()) {
      await env.client.create(Resources.storageClasses, { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name }, provisioner: 'simulated.ordinal.dev', allowVolumeExpansion: expands } as KubeObject);
      env.onClose(() => env.client.delete(Resources.storageClasses, undefined, name).catch(() => undefined));
    }
    const storage = new StorageActor({ client: env.client, timers: realTimers(), random: Math.random, namespace: env.ns, config: { bindSeconds: 0, expansionSeconds: 1, classes: {} } });
    storage.start();
    env.onClose(() => storage.stop());
    await Promise.all(sets.map(({ set }) => env.createConverged(set, 120_000)));

    const forecast = async (name: string, change: { image?: Array<{ container: string; image: string }>; set?: Array<{ path: string; value: unknown }> }, output: 'json' | 'text') => {
      const d = { client: env.client, namespace: env.ns, io: bufferIO(), timers: realTimers() };
      const code = await forecastCommand(d, name, { ...change, podStartSeconds: [1], terminationSeconds: [1], runs: 4, candidates: false, output });
      return { code, out: d.io.out, err: d.io.err };
    };
    for (const { set, grows, refused } of sets) {
      const name = set.metadata.name ?? '';
      const container = set.spec.template.spec.containers[0]?.name ?? '';
      const image = await forecast(name, { image: [{ container, image: 'registry.example/next:2' }] }, 'json');
      assert.equal(image.code, 0, `${name}: ${image.err}${image.out}`);
      const [current] = (JSON.parse(image.out) as { settings: Setting[] }).settings;
      assert.deepEqual([current?.converged, current?.runs], [4, 4], `${name}: every run of the image change converges`);
      if (grows) {
        const growth = await forecast(name, { set: [{ path: 'spec.volumeClaimTemplates', value: grown(set) }] }, 'json');
        assert.equal(growth.code, 0, `${name}: ${growth.err}${growth.out}`);
        const [g] = (JSON.parse(growth.out) as { settings: Setting[] }).settings;
        assert.equal(g?.converged, g?.runs, `${name}: every run of the claim growth converges`);
      }
      if (refused) {
        const growth = await forecast(name, { set: [{ path: 'spec.volumeClaimTemplates', value: grown(set) }] }, 'text');
        assert.equal(growth.code, 1, growth.out);
        assert.match(growth.out, /\ncurrent +4 .*4 run\(s\) did not converge: .*ClaimExpansionRefused: .*does not allow volume expansion/, growth.out);
      }
    }
  });
});
