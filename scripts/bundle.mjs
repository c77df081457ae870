#!/usr/bin/env node
// Builds the single-file kubectl plugin: `npm run bundle` → dist/kubectl-ordinal.cjs (CommonJS, so it runs
// under any file name, with its dependencies inlined). Install it as `kubectl-ordinal` on the PATH:
//   mkdir -p ~/.local/bin && install -m 0755 dist/kubectl-ordinal.cjs ~/.local/bin/kubectl-ordinal && kubectl ordinal --help
// Options: --outfile PATH (default dist/kubectl-ordinal.cjs), --minify.
import { build } from 'esbuild';
import { chmodSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const outfile = arg('--outfile') ?? join(root, 'dist', 'kubectl-ordinal.cjs');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// No top-level await (CommonJS has none): the entry mirrors src/cli/main.ts, with every command built up
// front (the bundle's modules are one file, read whole anyway); runProgram reports every failure itself
// (exit 1), so the promise it returns never rejects.
// The file is also its own forecast worker (src/sim/forecast-pool.ts starts it with that workerData).
const entry = `
import { basename } from 'node:path';
import { workerData } from 'node:worker_threads';
import { buildProgram } from './src/cli/program.ts';
import { runProgram } from './src/cli/top-level.ts';
if (workerData === 'ordinal-forecast-worker') void import('./src/sim/forecast-worker.ts');
else {
  const invokedAs = basename(process.argv[1] ?? 'kubectl-ordinal').replace(/\\.(c?js|ts)$/, '');
  void runProgram(buildProgram(invokedAs === 'ordinal' ? 'ordinal' : 'kubectl ordinal'), process.argv);
}
`;

// import.meta.url has no CommonJS meaning: point it at the bundle file itself (defined in the banner).
const IMPORT_META_URL = "const __ordinal_import_meta_url = require('node:url').pathToFileURL(__filename).href;";

const result = await build({
  stdin: { contents: entry, resolveDir: root, sourcefile: 'kubectl-ordinal-entry.ts', loader: 'ts' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile,
  // The demo's scenario travels inside the file: the plugin has no examples/ beside it.
  define: {
    'import.meta.url': '__ordinal_import_meta_url',
    // only the source tree (through tsx) resolves modules by import.meta.resolve
    'import.meta.resolve': 'undefined',
    ORDINAL_VERSION: JSON.stringify(version),
    ORDINAL_BUNDLE: 'true',
    ORDINAL_DEMO_SCENARIO: JSON.stringify(readFileSync(join(root, 'examples', 'demo.yaml'), 'utf8')),
  },
  banner: { js: `#!/usr/bin/env node\n${IMPORT_META_URL}` },
  minify: process.argv.includes('--minify'),
  legalComments: 'linked',
  logLevel: 'warning',
  metafile: true,
  // tr46 and whatwg-url (under the Kubernetes client) require Node's deprecated built-in `punycode`, which
  // Node 21+ warns about on stderr for code outside node_modules, as the bundle is: bundle the npm package
  // of the same name instead, so an error stays one line.
  alias: { punycode: 'punycode/' },
});
chmodSync(outfile, 0o755);
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
process.stdout.write(`wrote ${outfile} (${(bytes / 1024 / 1024).toFixed(1)} MiB, ordinal ${version})\n`);
