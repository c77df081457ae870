// The benchmark without the CLI wrapper: `node --import tsx bench/run.ts [--case one-set|many-sets]
// [--scale N] [--namespaces N]`. Same as `npm run bench` / `ordinal bench` (src/cli/commands/bench.ts).

import { parseArgs } from 'node:util';
import { benchCommand } from '../src/cli/commands/bench.js';

const { values } = parseArgs({
  options: { case: { type: 'string' }, scale: { type: 'string' }, namespaces: { type: 'string' }, json: { type: 'boolean' } },
});
process.exitCode = await benchCommand(values);
