// Lint rules double as architecture rules (style.md G14, T1): the layers api ← controller ← runtime ←
// cluster ← sim/report/cli are enforced with no-restricted-imports, and ambient time/randomness is banned
// in the core so that the injected clock is the only clock.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const layer = (...names) => names.map((n) => `**/${n}/**`);
const ambientTime = {
  'no-restricted-globals': [
    'error',
    { name: 'setTimeout', message: 'Use the injected Timers (style.md T1).' },
    { name: 'setInterval', message: 'Use the injected Timers (style.md T1).' },
    { name: 'setImmediate', message: 'Use the injected Timers (style.md T1).' },
  ],
  'no-restricted-properties': [
    'error',
    { object: 'Date', property: 'now', message: 'Use the injected Clock (style.md T1).' },
    { object: 'Math', property: 'random', message: 'Use the seeded PRNG (style.md T8).' },
    { object: 'performance', property: 'now', message: 'Use the injected Clock (style.md T1).' },
    { object: 'process', property: 'hrtime', message: 'Use the injected Clock (style.md T1).' },
  ],
  'no-restricted-syntax': [
    'error',
    { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Use the injected Clock (style.md T1).' },
  ],
};
const restrict = (patterns, extra = []) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message: 'Layering (style.md G14).' }, ...extra] }],
});
const noNode = { group: ['node:*', 'fs', 'path', 'os', 'child_process', 'http', 'https', 'net'], message: 'The pure core does no I/O (style.md G1).' };

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
  {
    files: ['src/api/**'],
    rules: { ...ambientTime, ...restrict(layer('controller', 'runtime', 'cluster', 'sim', 'report', 'cli'), [noNode]) },
  },
  {
    files: ['src/controller/**'],
    rules: { ...ambientTime, ...restrict(layer('runtime', 'cluster', 'sim', 'report', 'cli'), [noNode]) },
  },
  {
    files: ['src/runtime/**'],
    ignores: ['src/runtime/real-clock.ts'],
    rules: { ...ambientTime, ...restrict(layer('cluster', 'sim', 'report', 'cli')) },
  },
  {
    files: ['src/cluster/**'],
    rules: restrict(layer('sim', 'report', 'cli')),
  },
);
