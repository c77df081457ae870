// A forecast's worker thread: gets the setup once, then runs the jobs the pool hands it (forecast-pool.ts), one
// at a time in the order they came. Loaded as a worker's entry (or, in the single-file bundle, by its entry), it serves
// only when started as a forecast worker.

import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { runForecastJob, type ForecastSetup, type RunForecast, type RunJob } from './forecast-run.js';

/** The workerData that makes a thread a forecast worker. */
export const FORECAST_WORKER = 'ordinal-forecast-worker';

export type ToWorker = { type: 'setup'; setup: ForecastSetup } | { type: 'run'; id: number; job: RunJob };
export type FromWorker = { type: 'done'; id: number; run: RunForecast } | { type: 'failed'; id: number; message: string };

function serve(port: MessagePort): void {
  let setup: ForecastSetup | undefined;
  let queue = Promise.resolve();
  port.on('message', (m: ToWorker) => {
    if (m.type === 'setup') {
      setup = m.setup;
      return;
    }
    const reply = (r: FromWorker) => port.postMessage(r);
    const job = async (s: ForecastSetup | undefined): Promise<void> => {
      if (s === undefined) return reply({ type: 'failed', id: m.id, message: 'forecast worker: a job before the setup' });
      try {
        reply({ type: 'done', id: m.id, run: (await runForecastJob(s, m.job)).run });
      } catch (e) {
        reply({ type: 'failed', id: m.id, message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
      }
    };
    queue = queue.then(() => job(setup));
  });
}

if (parentPort !== null && workerData === FORECAST_WORKER) serve(parentPort);
