// `ordinal simulate FILE [--format text|jsonl] [--out PATH] [--report PATH.html]` (scenario.md): runs a
// scenario on the simulated cluster and prints its timeline. Exit 0: every expect held; 1: one failed (or
// a step could not be done); 2: bad scenario file, nothing run.

import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Option, type Command } from 'commander';
import { renderReport } from '../../report/index.js';
import { loadScenario } from '../../sim/scenario.js';
import { ScenarioError } from '../../sim/scenario-fields.js';
import type { Scenario } from '../../sim/scenario-types.js';
import { formatRecordText } from '../../sim/timeline-text.js';
import { toJsonLine, type TimelineRecord } from '../../sim/timeline.js';

export interface SimulateOptions {
  format?: 'text' | 'jsonl';
  out?: string;
  report?: string;
  /** Virtual seconds: print `why` and `plan` for every set at that time (text: in the timeline; jsonl: on stderr). */
  whyAt?: string;
}

export interface SimulateIO {
  stdout(text: string): void;
  stderr(text: string): void;
}

const processIO: SimulateIO = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** Runs the command; returns the exit code. */
export async function simulateCommand(file: string, opts: SimulateOptions, io: SimulateIO = processIO): Promise<number> {
  let scenario: Scenario;
  try {
    scenario = loadScenario(file);
  } catch (e) {
    if (!(e instanceof ScenarioError)) throw e;
    io.stderr(`${e.message}\n`);
    return 2;
  }
  const format = opts.format ?? 'text';
  const lines: string[] = [];
  const sink = opts.out ? (line: string) => lines.push(line) : bufferedWriter(io.stdout);
  const toLine = format === 'jsonl' ? toJsonLine : formatRecordText;
  const onRecord = (r: TimelineRecord) => sink(toLine(r));
  const whyAt = opts.whyAt === undefined ? undefined : Number(opts.whyAt);
  if (whyAt !== undefined && !(Number.isFinite(whyAt) && whyAt >= 0)) {
    io.stderr(`--why-at ${opts.whyAt}: must be a number of virtual seconds >= 0\n`);
    return 2;
  }
  // Loaded only when a scenario runs: the simulation brings in prom-client, which other commands do not need.
  const { runScenario } = await import('../../sim/runner.js');
  const { runScenarioWhyAt } = await import('../explain/why-at.js');
  const result =
    whyAt === undefined
      ? await runScenario(scenario, { onRecord })
      : await runScenarioWhyAt(scenario, { onRecord }, whyAt, (text) => (format === 'jsonl' ? io.stderr(text) : sink(text.trimEnd())));
  if (opts.out) writeFileSync(opts.out, lines.map((l) => `${l}\n`).join(''));
  else (sink as BufferedWriter).flush();
  if (opts.report) {
    writeFileSync(opts.report, renderReport(result.records, { title: scenario.name ?? basename(file) }));
    io.stderr(`report written to ${opts.report}\n`);
  }
  return result.exitCode;
}

interface BufferedWriter {
  (line: string): void;
  flush(): void;
}

/** Collects lines and writes them in chunks (a write per record is slow for long timelines). */
function bufferedWriter(write: (text: string) => void): BufferedWriter {
  let buffer: string[] = [];
  const flush = () => {
    if (buffer.length) write(buffer.join(''));
    buffer = [];
  };
  const sink = ((line: string) => {
    buffer.push(`${line}\n`);
    if (buffer.length >= 500) flush();
  }) as BufferedWriter;
  sink.flush = flush;
  return sink;
}

export function register(program: Command): void {
  program
    .command('simulate')
    .description('run a scenario on the simulated cluster with virtual time and print its timeline (see scenario files in examples/)')
    .argument('<file>', 'scenario file (YAML or JSON)')
    .addOption(new Option('--format <format>', 'timeline format').choices(['text', 'jsonl']).default('text'))
    .option('--out <path>', 'write the timeline to this file instead of stdout')
    .option('--report <path>', 'also write a self-contained HTML report (per-pod timeline, status counters)')
    .option('--why-at <seconds>', 'also explain every StatefulSet at that virtual time, as `why` and `plan` do (text: in the timeline; jsonl: on stderr)')
    .action(async (file: string, opts: SimulateOptions) => {
      process.exitCode = await simulateCommand(file, opts);
    });
}
