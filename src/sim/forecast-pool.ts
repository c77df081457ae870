// Runs a forecast's jobs on `threads` threads: this one and worker threads, each taking the next job as it
// finishes one (a worker is handed two at a time, so it never waits for this thread to hand it the next);
// results come back in job order, so the forecast is the same whatever the number of threads or the order
// they finish in.

import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { runForecastJob, type ForecastSetup, type RunForecast, type RunJob } from './forecast-run.js';
import { FORECAST_WORKER, type FromWorker, type ToWorker } from './forecast-worker.js';

/** Set by the single-file bundle (scripts/bundle.mjs), whose own entry serves as the worker. */
declare const ORDINAL_BUNDLE: boolean | undefined;

/** Threads to use by default: one per core. */
export const defaultThreads = (): number => availableParallelism();

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

/** Jobs a worker holds at once: the one it runs and the next. */
const PREFETCH = 2;

/** Every job's run, in the order of `jobs`; `threads` counts this one. */
export async function runForecastJobs(setup: ForecastSetup, jobs: readonly RunJob[], threads: number): Promise<RunForecast[]> {
  const results: RunForecast[] = new Array<RunForecast>(jobs.length);
  let next = 0;
  const take = (): number | undefined => (next < jobs.length ? next++ : undefined);
  const workers = Array.from({ length: Math.min(Math.max(1, Math.floor(threads)), jobs.length) - 1 }, startWorker);
  const served = workers.map(
    (w) =>
      new Promise<void>((resolve, reject) => {
        let held = 0;
        const feed = () => {
          while (held < PREFETCH) {
            const id = take();
            if (id === undefined) break;
            held++;
            w.postMessage({ type: 'run', id, job: jobs[id]! } satisfies ToWorker);
          }
          if (held === 0) resolve();
        };
        w.on('message', (m: FromWorker) => {
          if (m.type === 'failed') return reject(new Error(`forecast run ${m.id} failed: ${m.message}`));
          results[m.id] = m.run;
          held--;
          feed();
        });
        w.on('error', reject);
        w.on('exit', (code) => {
          if (held > 0) reject(new Error(`a forecast worker stopped (exit code ${code}) with runs left`));
        });
        w.postMessage({ type: 'setup', setup } satisfies ToWorker);
        feed();
      }),
  );
  const here = async () => {
    for (let id = take(); id !== undefined; id = take()) results[id] = (await runForecastJob(setup, jobs[id]!)).run;
  };
  try {
    await Promise.all([here(), ...served]);
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return results;
}
