// `ordinal demo` (`npm start`): plays examples/demo.yaml on the embedded simulated cluster with a live
// view of the pods per ordinal, paced in real time (virtual time × speed), then prints a summary and
// writes the HTML report.

import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { renderReport } from '../../report/index.js';
import { frameOf, renderFrame, type Frame } from '../../report/terminal-view.js';
import { sleep } from '../../runtime/clock.js';
import { realTimers } from '../../runtime/real-clock.js';
import { loadScenario, parseScenario } from '../../sim/scenario.js';
import { ScenarioError } from '../../sim/scenario-fields.js';
import type { Simulation } from '../../sim/simulation.js';
import type { TimelineRecord } from '../../sim/timeline.js';
import { demoSummary } from './demo-summary.js';
import { describeStep } from '../../report/step-labels.js';

/** How long (virtual seconds) the live view keeps showing the last Event. */
const EVENT_SECONDS = 20;

const DEFAULT_REPORT = 'ordinal-demo-report.html';

export const DEMO_SCENARIO = fileURLToPath(new URL('../../../examples/demo.yaml', import.meta.url));

/** Set by scripts/bundle.mjs (esbuild `define`): the single-file plugin carries examples/demo.yaml's text. */
declare const ORDINAL_DEMO_SCENARIO: string | undefined;

export interface DemoOptions {
  file?: string;
  report?: string;
  speed?: string;
  color?: boolean;
}

// The pacing timers must keep the process alive: nothing else is pending while the demo waits.
const pacing = realTimers({ keepAlive: true });

/** The last Event, shown for EVENT_SECONDS of virtual time (or until the next step). */
interface ShownEvent {
  t: number;
  text: string;
}

interface Screen {
  draw(frame: Frame, event: ShownEvent | undefined): void;
}

/** The frame without what changes every tick (the clock, each pod's time in state). */
const frameKey = (frame: Frame): string =>
  JSON.stringify({ sets: frame.sets.map((set) => ({ ...set, rows: set.rows.map((row) => ({ ...row, forSeconds: 0 })) })), notes: frame.notes });

/**
 * On a TTY the frame, with the last Event under it, is redrawn in place. Otherwise (a log, a pipe) each Event
 * is printed once, as it comes, and a frame only when something other than the clock and the times in state
 * changed, so the output reads as a log.
 */
function screen(out: NodeJS.WriteStream, color: boolean): Screen {
  let height = 0;
  let last = '';
  let printedEvent: ShownEvent | undefined;
  return {
    draw(frame, event) {
      if (out.isTTY) {
        const text = renderFrame({ ...frame, notes: [...frame.notes, ...(event ? [event.text] : [])] }, { color }).join('\n');
        if (text === last) return;
        last = text;
        out.write((height ? `\x1b[${height}A\x1b[J` : '') + text + '\n');
        height = text.split('\n').length;
        return;
      }
      if (event !== undefined && event !== printedEvent) {
        printedEvent = event;
        out.write(`t = ${event.t.toFixed(1)}s ${event.text}\n\n`);
      }
      const key = frameKey(frame);
      if (key === last) return;
      last = key;
      out.write(`${renderFrame(frame, { color }).join('\n')}\n\n`);
    },
  };
}

export async function demoCommand(opts: DemoOptions, out: NodeJS.WriteStream = process.stdout): Promise<number> {
  const file = opts.file ?? DEMO_SCENARIO;
  const embedded = opts.file === undefined && typeof ORDINAL_DEMO_SCENARIO === 'string' ? ORDINAL_DEMO_SCENARIO : undefined;
  const scenario = loadScenarioOr2(file, embedded);
  if (!scenario) return 2;
  const speed = Number(opts.speed ?? '8');
  const color = opts.color !== false && !!out.isTTY && !process.env['NO_COLOR'];
  const view = screen(out, color);
  const progressEveryMs = 250;
  let step = '';
  let event: ShownEvent | undefined;
  const onRecord = (r: TimelineRecord) => {
    if (r.type === 'step') {
      step = `step #${r.index}: ${describeStep(r.step)}`;
      event = undefined;
    }
    if (r.type === 'event') event = { t: r.t, text: `event: ${r.reason} ${r.message}` };
  };
  const onProgress = async (sim: Simulation) => {
    if (event !== undefined && sim.t() - event.t > EVENT_SECONDS) event = undefined;
    view.draw(frameOf(sim.state, sim.now(), sim.t(), step ? [step] : []), event);
    if (speed > 0 && Number.isFinite(speed)) await sleep(pacing, progressEveryMs / speed);
  };
  const report = resolve(opts.report ?? DEFAULT_REPORT);
  out.write(`Ordinal demo: ${scenario.name ?? file} on the simulated cluster (virtual time × ${speed})\n`);
  out.write(`The HTML report will be written to ${report} (--report PATH to choose).\n\n`);
  // Loaded here, not at the top: the simulation brings in prom-client, which other commands do not need.
  const { runScenario } = await import('../../sim/runner.js');
  const result = await runScenario(scenario, { onRecord, onProgress, progressEveryMs });
  writeFileSync(report, renderReport(result.records, { title: `Ordinal demo: ${scenario.name ?? file}` }));
  out.write(`\n${demoSummary(result.records, result.summary).join('\n')}\nHTML report written to ${report}\n`);
  return result.exitCode;
}

function loadScenarioOr2(file: string, text: string | undefined) {
  try {
    return text === undefined ? loadScenario(file) : parseScenario(text, 'examples/demo.yaml');
  } catch (e) {
    if (!(e instanceof ScenarioError)) throw e;
    process.stderr.write(`${e.message}\n`);
    return undefined;
  }
}

export function register(program: Command): void {
  program
    .command('demo')
    .description('roll out a StatefulSet with maxUnavailable on the embedded simulated cluster, with a live view and an HTML report')
    .option('--file <scenario>', 'play another scenario file instead of examples/demo.yaml')
    .option('--report <path>', 'where to write the HTML report (a relative path is in the current directory)', DEFAULT_REPORT)
    .option('--speed <factor>', 'virtual seconds per wall-clock second (0: as fast as possible)', '8')
    .option('--no-color', 'plain output without ANSI colours')
    .action(async (opts: DemoOptions) => {
      process.exitCode = await demoCommand(opts);
    });
}
