// The commands the docs tell users to run, read from the Markdown itself, so the tests run what the docs say
// and nothing else. Install commands: every line of a fenced `sh` block and every inline `kubectl …`/`helm …`
// span (or `… | kubectl apply -f -`) in a level-2 section whose heading says "Install", in README.md,
// docs/*.md and deploy/README.md. Each line is run as written, except those NOT_RUN names with the reason.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = new URL('../../', import.meta.url).pathname;

/** The files whose install sections are read, relative to the repository root. */
export const INSTALL_DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`), 'deploy/README.md'];

export interface DocLine {
  /** `docs/user-guide.md`. */
  file: string;
  line: string;
}

/** One install from nothing: its commands in order, run on a control plane of its own. */
export interface InstallScript {
  lines: DocLine[];
}

/** Lines that are not run here, by exact text, with where the same thing is tested instead. */
export const NOT_RUN: Record<string, string> = {
  'docker build -t ordinal:0.1.0 .':
    'no Docker here: test/e2e/image.test.ts builds the same Dockerfile with buildah (scripts/image/build.sh) and runs the image on kube-apiserver',
  'sudo scripts/image/build.sh':
    '.ci/run runs scripts/image/build.sh before the tests, and test/e2e/image.test.ts runs the image it built',
  'npm ci && npm run bundle':
    'npm ci would replace the node_modules of the suite that runs it: the test runs `npm run bundle`\'s script (scripts/bundle.mjs) for the lines after it, and test/cli/bundle.test.ts checks the bundle',
  'helm uninstall': 'prose naming the command: the Helm blocks run it with its release and namespace',
  'kubectl ordinal': 'prose naming the plugin: the block after it runs `kubectl ordinal --help`',
};

/** A line that installs Ordinal from nothing starts a script of its own (a fresh control plane). */
const INSTALLS = /^(kubectl apply -f deploy\/namespace\.yaml |helm install |\S.*\bmanifests\b.*\| kubectl apply -f -$)/;

/** The level-2 sections of a Markdown text whose heading says Install, each from its heading to the next. */
function installSections(text: string): string[] {
  const parts = text.split(/^(?=## )/m);
  return parts.filter((p) => /^## .*\bInstall\b/.test(p));
}

/** The section's commands in order: fenced `sh` lines (comments at the end kept) and command-like inline spans. */
export function sectionCommands(section: string): string[] {
  const out: string[] = [];
  const chunks = section.split(/^```/m);
  chunks.forEach((chunk, i) => {
    if (i % 2 === 1) {
      const [lang, ...body] = chunk.split('\n');
      if (lang?.trim() === 'sh') out.push(...body.map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#')));
      return;
    }
    for (const m of chunk.matchAll(/`([^`\n]+)`/g)) {
      const span = m[1] ?? '';
      if (/^(kubectl|helm) /.test(`${span} `) || /\| kubectl apply -f -$/.test(span)) out.push(span);
    }
  });
  return out;
}

/** Every install command line of the docs, file by file, in order. */
export function installLines(): DocLine[] {
  return INSTALL_DOCS.flatMap((file) =>
    installSections(readFileSync(join(ROOT, file), 'utf8')).flatMap((section) => sectionCommands(section).map((line) => ({ file, line }))),
  );
}

/** The text a NOT_RUN key matches: the command without a trailing `# comment`. */
export const withoutComment = (line: string): string => line.replace(/\s+#.*$/, '');

/**
 * The install lines as scripts: a line that installs from nothing starts a new one; any other line goes on
 * with the script of its section before it. Lines in NOT_RUN are left out (`skipped` lists them); scripts
 * with the same lines are run once.
 */
export function installScripts(): { scripts: InstallScript[]; skipped: DocLine[] } {
  const scripts: InstallScript[] = [];
  const skipped: DocLine[] = [];
  let current: InstallScript | undefined;
  let currentFile = '';
  for (const l of installLines()) {
    if (l.file !== currentFile) current = undefined;
    currentFile = l.file;
    if (NOT_RUN[withoutComment(l.line)] !== undefined) {
      skipped.push(l);
      continue;
    }
    if (current === undefined || INSTALLS.test(withoutComment(l.line))) {
      current = { lines: [] };
      scripts.push(current);
    }
    current.lines.push(l);
  }
  const seen = new Set<string>();
  const unique = scripts.filter((s) => {
    const key = s.lines.map((l) => l.line).join('\n');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { scripts: unique, skipped };
}

/** The fenced `sh` blocks of a file's section whose heading (any level) is `heading`, lines as written. */
export function blocksUnder(file: string, heading: string): string[][] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const start = text.search(new RegExp(`^#+ ${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`, 'm'));
  if (start < 0) throw new Error(`${file} has no heading "${heading}"`);
  const rest = text.slice(start);
  const body = rest.indexOf('\n') + 1;
  const end = rest.slice(body).search(/^#+ /m);
  const section = end < 0 ? rest : rest.slice(0, body + end);
  return section
    .split(/^```/m)
    .filter((_, i) => i % 2 === 1)
    .filter((chunk) => chunk.startsWith('sh\n'))
    .map((chunk) => chunk.split('\n').slice(1).filter((l) => l.trim() !== ''));
}

/** The one line of `file` (in a fenced block or not) that starts with `prefix`; throws unless exactly one does. */
export function docLine(file: string, prefix: string): string {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const hits = text.split('\n').filter((l) => l.startsWith(prefix));
  if (hits.length !== 1) throw new Error(`${file}: want one line starting with "${prefix}", found ${hits.length}`);
  return hits[0] ?? '';
}
