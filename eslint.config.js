// Lint rules double as architecture rules:
// - layering: api ← controller ← runtime ← cluster ← sim ← report ← cli, enforced with no-restricted-imports,
//   and inside the controller its stages (CONTROLLER_STAGES), each importing only the ones before it;
// - an npm allow-list per layer (the planner and the API types import nothing from npm);
// - ambient time and randomness are banned in all of src/, so the injected clock and PRNG are the only ones.
//   Real time enters through src/runtime/real-clock.ts alone (EXEMPT below says why each exemption exists).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const useTimers = 'Use the injected Timers (src/runtime/clock.ts); real ones come from src/runtime/real-clock.ts.';
const useClock = 'Use the injected Clock (src/runtime/clock.ts); real time comes from src/runtime/real-clock.ts.';
const usePrng = 'Use the injected seeded PRNG (src/runtime/random.ts); real randomness comes from src/runtime/real-clock.ts.';
const timerGlobals = ['setTimeout', 'setInterval', 'setImmediate'];

const ambientGlobals = (names) => ['error', ...names.map((name) => ({ name, message: useTimers }))];
const ambientTime = {
  'no-restricted-globals': ambientGlobals(timerGlobals),
  'no-restricted-properties': [
    'error',
    ...timerGlobals.map((property) => ({ object: 'globalThis', property, message: useTimers })),
    { object: 'Date', property: 'now', message: useClock },
    { object: 'performance', property: 'now', message: useClock },
    { object: 'process', property: 'hrtime', message: useClock },
    { object: 'Math', property: 'random', message: usePrng },
  ],
  'no-restricted-syntax': [
    'error',
    { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: useClock },
    { selector: "CallExpression[callee.name='Date']", message: useClock },
    // no-restricted-imports does not see import(); keep package imports static so the allow-list applies.
    { selector: "ImportExpression:not([source.value=/^\\./])", message: 'Import packages statically (only relative modules may be imported dynamically).' },
  ],
};

// Files allowed ambient time, each for one reason.
const EXEMPT = [
  // The real-clock adapter: the one place real timers, wall time and Math.random are read.
  { files: ['src/runtime/real-clock.ts'], rules: { 'no-restricted-globals': 'off', 'no-restricted-properties': 'off' } },
  // settle() waits one event-loop turn (setImmediate runs once the microtask queue is empty) to let promise
  // chains drain; that is not a timer and reads no time. Date.now and the other timers stay banned here.
  { files: ['src/sim/virtual-clock.ts'], rules: { 'no-restricted-globals': ambientGlobals(['setTimeout', 'setInterval']) } },
];

// model (the plan's vocabulary) → replica (one record per replica) → rollout (the strategy, revisions and holds
// decided once) → proposals (what each phase would disrupt) → admission (the one place that admits them) →
// plan (the sync and its status) → checks (the invariants every plan is held to).
const CONTROLLER_STAGES = ['model', 'replica', 'rollout', 'proposals', 'admission', 'plan', 'checks'];

// Layers, lowest first: each may not import from the folders in `not` (the layers above it, and sibling
// adapters), nor from node: built-ins if it is pure, nor from npm beyond its `npm` list.
const LAYERS = [
  // yaml: the one hardened YAML loader (src/api/yaml-loader.ts) parses text, which is pure.
  { dir: 'src/api', not: ['controller', 'runtime', 'cluster', 'sim', 'report', 'cli'], pure: true, npm: ['yaml'] },
  { dir: 'src/controller', not: ['runtime', 'cluster', 'sim', 'report', 'cli'], pure: true, npm: [] },
  // The planner's stages, in the order a sync runs them: each imports only the stages before it, so the
  // planner has no import circle and no arrow running back up.
  ...CONTROLLER_STAGES.map((stage, i) => ({
    dir: `src/controller/${stage}`,
    not: ['runtime', 'cluster', 'sim', 'report', 'cli', ...CONTROLLER_STAGES.slice(i + 1)],
    pure: true,
    npm: [],
  })),
  { dir: 'src/runtime', not: ['cluster', 'sim', 'report', 'cli'], npm: ['prom-client'] },
  { dir: 'src/cluster', not: ['sim', 'report', 'cli'], npm: [] },
  { dir: 'src/cluster/memory', not: ['sim', 'report', 'cli', 'kube'], npm: [] },
  { dir: 'src/cluster/kubelet', not: ['sim', 'report', 'cli', 'kube'], npm: [] },
  { dir: 'src/cluster/kube', not: ['sim', 'report', 'cli', 'memory', 'kubelet'], npm: ['@kubernetes/client-node'] },
  { dir: 'src/sim', not: ['report', 'cli'], npm: ['prom-client'] },
  { dir: 'src/report', not: ['cli'], npm: [] },
  { dir: 'src/cli', files: ['src/cli/**', 'src/cli.ts'], not: [], npm: ['@kubernetes/client-node', 'commander', 'pino', 'yaml'] },
];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
function importRules({ dir, not, pure, npm }) {
  const patterns = [];
  if (not.length) patterns.push({ group: not.map((n) => `**/${n}/**`), message: `Layering: ${dir} may not import from ${not.join(', ')}.` });
  if (pure) patterns.push({ regex: '^node:', message: `${dir} is pure: no I/O, so no node: built-ins.` });
  // The module forms of the banned globals (no-restricted-globals does not see an import).
  patterns.push({ regex: '^(node:)?(timers|perf_hooks)(/|$)', message: 'Use the injected Timers or Clock (src/runtime/clock.ts); real ones come from src/runtime/real-clock.ts.' });
  // Anything that is neither relative, nor a node: built-in, nor an allowed package (or a subpath of one).
  const allowed = ['\\.', 'node:', ...npm.map((p) => `${escape(p)}(?:/|$)`)];
  const which = npm.length ? `only ${npm.join(', ')}` : 'nothing';
  patterns.push({ regex: `^(?!${allowed.join('|')})`, message: `${dir} may import ${which} from npm; add a package to its list in eslint.config.js only if the layer really needs it.` });
  return { 'no-restricted-imports': ['error', { patterns }] };
}
// A file in src/cluster/kube matches both src/cluster/** and src/cluster/kube/**; the more specific block
// comes later and wins, so the top-level src/cluster files get the src/cluster rules.
const layerBlocks = LAYERS.map((layer) => ({ files: layer.files ?? [`${layer.dir}/**`], rules: importRules(layer) }));

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'deploy/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'max-lines': ['warn', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['test/**', 'bench/**', 'scripts/**'],
    rules: { 'max-lines-per-function': 'off', 'max-lines': ['warn', { max: 700 }] },
  },
  // Type-aware checks: every switch over an Action, Blocker or other union handles every member (a new kind
  // does not compile into a silent default), and no promise is left floating (its rejection unobserved).
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false }],
      // node:test's describe/it return promises the runner awaits itself
      '@typescript-eslint/no-floating-promises': ['error', { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'before', 'after', 'beforeEach', 'afterEach', 'suite'] }] }],
    },
  },
  { files: ['src/**'], rules: ambientTime },
  ...EXEMPT,
  ...layerBlocks,
);
