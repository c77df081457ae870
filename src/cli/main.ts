// Entry point of the `ordinal` and `kubectl-ordinal` binaries.

import { basename } from 'node:path';
import { buildProgram } from './program.js';

const invokedAs = basename(process.argv[1] ?? 'ordinal').replace(/\.(js|ts)$/, '');
const program = buildProgram(invokedAs === 'kubectl-ordinal' ? 'kubectl ordinal' : 'ordinal');
await program.parseAsync(process.argv);
