// `version [-o text|json|yaml]`: kubectl plugins answer `kubectl <plugin> version` (as kubectl does with
// `kubectl version`); `--version` stays for the bare number.

import { Option, type Command } from 'commander';
import { stringify } from 'yaml';

export function register(program: Command, version: string): void {
  program
    .command('version')
    .description('print the version of Ordinal and of the Node.js running it')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json', 'yaml']).default('text'))
    .action((opts: { output: 'text' | 'json' | 'yaml' }) => {
      const info = { ordinalVersion: version, nodeVersion: process.version };
      if (opts.output === 'json') process.stdout.write(`${JSON.stringify(info, null, 2)}\n`);
      else if (opts.output === 'yaml') process.stdout.write(stringify(info));
      else process.stdout.write(`Ordinal version: ${version}\nNode.js version: ${process.version}\n`);
    });
}
