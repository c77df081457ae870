// Runs a forecast's jobs on worker threads, one job at a time per worker, each handed the next job as it
// finishes one; results come back in job order, so the forecast is the same whatever the number of workers
// or the order they finish in. One worker or one job: runs them here, in this thread.

import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { runForecastJob, type ForecastSetup, type RunForecast, type RunJob } from './forecast-run.js';
import { FORECAST_WORKER, type FromWorker, type ToWorker } from './forecast-worker.js';

/** Set by the single-file bundle (scripts/bundle.mjs), whose own entry serves as the worker. */
declare const ORDINAL_BUNDLE: boolean | undefined;

/** Workers to use by default: one per core. */
export const defaultWorkers = (): number => availableParallelism();

/** A worker running forecast-worker.ts: from source through tsx, from dist/, or the bundle itself. */
function startWorker(): Worker {
  const here = import.meta.url;
  if (typeof ORDINAL_BUNDLE === 'boolean' && ORDINAL_BUNDLE) return new Worker(fileURLToPath(here), { workerData: FORECAST_WORKER });
  if (here.endsWith('.ts')) {
    // Node 20 workers do not take --import: register tsx in the worker, then load the source.
    const tsx = import.meta.resolve('tsx/esm/api');
    const entry = new URL('./forecast-worker.ts', here).href;
    const code = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
    return new Worker(code, { eval: true, workerData: FORECAST_WORKER });
  }
  return new Worker(new URL('./forecast-worker.js', here), { workerData: FORECAST_WORKER });
}

/** Every job's run, in the order of `jobs`. */
export async function runForecastJobs(setup: ForecastSetup, jobs: readonly RunJob[], workers: number): Promise<RunForecast[]> {
  const threads = Math.min(Math.max(1, Math.floor(workers)), jobs.length);
  if (threads <= 1) {
    const out: RunForecast[] = [];
    for (const job of jobs) out.push((await runForecastJob(setup, job)).run);
    return out;
  }
  const results: RunForecast[] = new Array<RunForecast>(jobs.length);
  const pool = Array.from({ length: threads }, startWorker);
  try {
    await new Promise<void>((resolve, reject) => {
      let next = 0;
      let done = 0;
      const send = (w: Worker) => {
        if (next >= jobs.length) return;
        const id = next++;
        w.postMessage({ type: 'run', id, job: jobs[id]! } satisfies ToWorker);
      };
      for (const w of pool) {
        w.on('message', (m: FromWorker) => {
          if (m.type === 'failed') return reject(new Error(`forecast run ${m.id} failed: ${m.message}`));
          results[m.id] = m.run;
          if (++done === jobs.length) resolve();
          else send(w);
        });
        w.on('error', reject);
        w.on('exit', (code) => {
          if (done < jobs.length) reject(new Error(`a forecast worker stopped (exit code ${code}) with runs left`));
        });
        w.postMessage({ type: 'setup', setup } satisfies ToWorker);
        send(w);
      }
    });
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
  return results;
}
