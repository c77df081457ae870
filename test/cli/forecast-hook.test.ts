// `forecast --hook-seconds`: a spec.lifecycle.preUpdate hook costs its given (or recorded) duration per pod, on
// the simulated cluster (cluster.preUpdateHookSeconds), and the flag is refused for a set without a hook.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forecastManifestCommand, type ForecastOptions } from '../../src/cli/commands/forecast.js';
import { bufferIO } from '../../src/cli/explain/io.js';

const dir = mkdtempSync(join(tmpdir(), 'ordinal-forecast-hook-'));
const manifest = (hook: boolean): string => {
  const file = join(dir, hook ? 'hooked.yaml' : 'plain.yaml');
  writeFileSync(
    file,
    `apiVersion: apps.ordinal.dev/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 3
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: app, image: "app:1"}]}
${hook ? '  lifecycle: {preUpdate: {http: {url: "http://op.example/switchover"}}}\n' : ''}`,
  );
  return file;
};

async function current(file: string, extra: Partial<ForecastOptions>): Promise<{ code: number; p50?: number; hookSource?: string; err: string }> {
  const io = bufferIO();
  const opts: ForecastOptions = { image: [{ container: 'app', image: 'app:2' }], podStartSeconds: [2], terminationSeconds: [1], runs: 2, candidates: false, output: 'json', ...extra };
  const code = await forecastManifestCommand(file, opts, io);
  if (code !== 0) return { code, err: io.err };
  const data = JSON.parse(io.out) as { settings: { p50: number }[]; preUpdateHookSeconds?: { source: string } };
  return { code, err: io.err, ...(data.settings[0] ? { p50: data.settings[0].p50 } : {}), ...(data.preUpdateHookSeconds ? { hookSource: data.preUpdateHookSeconds.source } : {}) };
}

describe('forecast --hook-seconds', () => {
  it('adds the hook to every pod of an OrderedReady rollout, one after another', async () => {
    const quick = await current(manifest(true), { hookSeconds: [1] });
    const slow = await current(manifest(true), { hookSeconds: [20] });
    assert.equal(quick.code, 0, quick.err);
    assert.equal(slow.code, 0, slow.err);
    assert.equal(slow.hookSource, '--hook-seconds');
    // GETs every 5 s: a hook of 1 s passes on the second GET (5 s), one of 20 s on the fifth (20 s): 15 s more per pod
    assert.equal((slow.p50 ?? 0) - (quick.p50 ?? 0), 3 * 15, `${quick.p50} → ${slow.p50}`);
  });

  it('says where the hook cost comes from when no flag gives it', async () => {
    const r = await current(manifest(true), {});
    assert.equal(r.code, 0, r.err);
    assert.match(r.hookSource ?? '', /give --hook-seconds/);
  });

  it('refuses --hook-seconds for a set without a hook', async () => {
    const r = await current(manifest(false), { hookSeconds: [5] });
    assert.deepEqual([r.code, r.err], [2, 'error: --hook-seconds: the set has no spec.lifecycle.preUpdate hook\n']);
  });
});
