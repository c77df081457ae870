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

/** Threads that run a forecast's jobs, batch after batch: started once, closed at the end. */
export interface ForecastPool {
  /** Every job's run, in the order of `jobs`. */
  run(jobs: readonly RunJob[]): Promise<RunForecast[]>;
  /** Stops the worker threads. */
  close(): Promise<void>;
}

interface Batch {
  jobs: readonly RunJob[];
  results: RunForecast[];
  next: number;
  fail(error: Error): void;
}

/** A pool of `threads` threads, this one included (worker threads only when more than one). */
export function startForecastPool(setup: ForecastSetup, threads: number): ForecastPool {
  const workers = Array.from({ length: Math.max(1, Math.floor(threads)) - 1 }, () => {
    const w = startWorker();
    w.postMessage({ type: 'setup', setup } satisfies ToWorker);
    return w;
  });
  let batch: Batch | undefined;
  const take = (): number | undefined => (batch !== undefined && batch.next < batch.jobs.length ? batch.next++ : undefined);
  const serve = (w: Worker): Promise<void> =>
    new Promise<void>((resolve) => {
      let held = 0;
      const feed = () => {
        while (held < PREFETCH) {
          const id = take();
          if (id === undefined) break;
          held++;
          w.postMessage({ type: 'run', id, job: batch!.jobs[id]! } satisfies ToWorker);
        }
        if (held === 0) finish();
      };
      const onMessage = (m: FromWorker) => {
        if (m.type === 'failed') return batch?.fail(new Error(`forecast run ${m.id} failed: ${m.message}`));
        batch!.results[m.id] = m.run;
        held--;
        feed();
      };
      const onError = (e: Error) => batch?.fail(e);
      const onExit = (code: number) => {
        if (held > 0) batch?.fail(new Error(`a forecast worker stopped (exit code ${code}) with runs left`));
      };
      const finish = () => {
        w.off('message', onMessage).off('error', onError).off('exit', onExit);
        resolve();
      };
      w.on('message', onMessage).on('error', onError).on('exit', onExit);
      feed();
    });
  return {
    async run(jobs) {
      const results = new Array<RunForecast>(jobs.length);
      let failed: (e: Error) => void = () => {};
      const failure = new Promise<never>((_, reject) => (failed = reject));
      batch = { jobs, results, next: 0, fail: (e) => failed(e) };
      const here = async () => {
        for (let id = take(); id !== undefined; id = take()) results[id] = (await runForecastJob(setup, jobs[id]!)).run;
      };
      await Promise.race([Promise.all([here(), ...workers.map(serve)]), failure]);
      batch = undefined;
      return results;
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

/** Every job's run, in the order of `jobs`; `threads` counts this one. */
export async function runForecastJobs(setup: ForecastSetup, jobs: readonly RunJob[], threads: number): Promise<RunForecast[]> {
  const pool = startForecastPool(setup, Math.min(threads, jobs.length));
  try {
    return await pool.run(jobs);
  } finally {
    await pool.close();
  }
}
