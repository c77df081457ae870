// A real Prometheus server for the end-to-end tests of Prometheus analyses (Debian's `prometheus` package;
// .ci/run installs it; $ORDINAL_PROMETHEUS names another binary), scraping every second an exporter this
// process serves on 127.0.0.1: per-pod series of the test's sets, as an app's /metrics would give them, from
// what the pods run (the simulated kubelet runs no container, so the exporter speaks for them). A missing
// binary fails under CI and skips elsewhere, as the control plane does.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from './wait.js';

export const PROMETHEUS = process.env.ORDINAL_PROMETHEUS ?? 'prometheus';

/** What the exporter says of one pod: its series (name → value) with labels `namespace` and `pod`. */
export type PodSeries = (pod: ScrapedPod) => Record<string, number>;

export type ScrapedPod = { namespace: string; name: string; image: string };

export interface PrometheusServer {
  /** http://127.0.0.1:PORT, for `analysis.prometheus.address`. */
  address: string;
  /** An instant query's result, as the controller would see it. */
  query(q: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** The exporter: at each scrape, the text exposition of `series(pod)` for each pod `pods()` lists. */
async function exporter(pods: () => Promise<readonly ScrapedPod[]>, series: PodSeries): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => {
    pods().then(
      (list) => {
        const lines = list.flatMap((pod) => Object.entries(series(pod)).map(([name, value]) => `${name}{namespace="${pod.namespace}",pod="${pod.name}"} ${value}`));
        res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(`${lines.join('\n')}\n`);
      },
      (err: unknown) => res.writeHead(500).end(String(err)),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Why the tests cannot run (no prometheus binary), or undefined; under CI a missing binary is an error. */
export function prometheusMissing(): string | undefined {
  const probe = spawnSync(PROMETHEUS, ['--version'], { encoding: 'utf8' });
  if (probe.error === undefined && probe.status === 0) return undefined;
  const why = `no prometheus binary (${PROMETHEUS}): ${probe.error?.message ?? probe.stderr}; .ci/run installs Debian's prometheus package`;
  if (process.env.CI) throw new Error(why);
  return why;
}

/** Starts the exporter and a Prometheus scraping it, and waits for its first successful scrape. */
export async function startPrometheus(pods: () => Promise<readonly ScrapedPod[]>, series: PodSeries): Promise<PrometheusServer> {
  const exp = await exporter(pods, series);
  const dir = mkdtempSync(join(tmpdir(), 'ordinal-prometheus-'));
  const config = join(dir, 'prometheus.yml');
  // honor_labels keeps the exporter's namespace and pod labels, as a pod scrape's relabelling would set them
  writeFileSync(config, `global: {scrape_interval: 1s, evaluation_interval: 1s}\nscrape_configs:\n  - job_name: pods\n    honor_labels: true\n    static_configs: [{targets: ['127.0.0.1:${exp.port}']}]\n`);
  const port = await freePort();
  const child: ChildProcess = spawn(PROMETHEUS, [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-4000)));
  const address = `http://127.0.0.1:${port}`;
  const query: PrometheusServer['query'] = async (q) => {
    const res = await fetch(`${address}/api/v1/query?query=${encodeURIComponent(q)}`);
    const body = (await res.json()) as { data?: { result?: { metric: Record<string, string>; value: [number, string] }[] } };
    return body.data?.result ?? [];
  };
  const stop = async (): Promise<void> => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await new Promise<void>((r) => exp.server.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntil('Prometheus to scrape the exporter', 30_000, async () => {
      if (child.exitCode !== null) throw new Error(`prometheus exited ${child.exitCode}: ${stderr}`);
      const up = await query('up{job="pods"}').catch(() => []);
      return up[0]?.value[1] === '1' || 'no successful scrape yet';
    });
  } catch (e) {
    await stop();
    throw e;
  }
  return { address, query, stop };
}
