// A forecast's worker thread: gets the setup once, then runs one job at a time as the pool hands them out
// (forecast-pool.ts). Loaded as a worker's entry (or, in the single-file bundle, by its entry), it serves
// only when started as a forecast worker.

import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { runForecastJob, type ForecastSetup, type RunForecast, type RunJob } from './forecast-run.js';

/** The workerData that makes a thread a forecast worker. */
export const FORECAST_WORKER = 'ordinal-forecast-worker';

export type ToWorker = { type: 'setup'; setup: ForecastSetup } | { type: 'run'; id: number; job: RunJob };
export type FromWorker = { type: 'done'; id: number; run: RunForecast } | { type: 'failed'; id: number; message: string };

function serve(port: MessagePort): void {
  let setup: ForecastSetup | undefined;
  port.on('message', (m: ToWorker) => {
    if (m.type === 'setup') {
      setup = m.setup;
      return;
    }
    const reply = (r: FromWorker) => port.postMessage(r);
    if (setup === undefined) return reply({ type: 'failed', id: m.id, message: 'forecast worker: a job before the setup' });
    runForecastJob(setup, m.job).then(
      ({ run }) => reply({ type: 'done', id: m.id, run }),
      (e: unknown) => reply({ type: 'failed', id: m.id, message: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
    );
  });
}

if (parentPort !== null && workerData === FORECAST_WORKER) serve(parentPort);
