// `version [-o text|json|yaml]`: kubectl plugins answer `kubectl <plugin> version` (as kubectl does with
// `kubectl version`); `--version` stays for the bare number.

import type { Command } from 'commander';
import { outputOption, structured, type OutputFormat } from '../explain/output-format.js';

export function register(program: Command, version: string): void {
  program
    .command('version')
    .description('print the version of Ordinal and of the Node.js running it')
    .addOption(outputOption())
    .action((opts: { output: OutputFormat }) => {
      const info = { ordinalVersion: version, nodeVersion: process.version };
      if (opts.output !== 'text') process.stdout.write(structured(info, opts.output));
      else process.stdout.write(`Ordinal version: ${version}\nNode.js version: ${process.version}\n`);
    });
}
