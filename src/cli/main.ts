// Entry point of the `ordinal` and `kubectl-ordinal` binaries (scripts/bundle.mjs has the bundle's twin).

import { basename } from 'node:path';
import { loadProgram } from './lazy-program.js';
import { runProgram } from './top-level.js';

const invokedAs = basename(process.argv[1] ?? 'ordinal').replace(/\.(js|ts)$/, '');
await runProgram(await loadProgram(invokedAs === 'kubectl-ordinal' ? 'kubectl ordinal' : 'ordinal', process.argv), process.argv);
