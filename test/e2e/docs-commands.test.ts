// The docs' commands, run exactly as written, with kubectl and helm, on kube-apiserver 1.37:
// - every install command of README.md, docs/*.md and deploy/README.md (doc-commands.ts finds them), each
//   install from nothing on a fresh control plane of its own (up.sh in a temporary directory), with a
//   kube-controller-manager running the Deployment controllers and `ordinal kubelet` as the node where a line
//   waits for the Deployment to roll out; a line that cannot run here is in NOT_RUN with the reason;
// - scripts/control-plane/README.md's "try the operator" blocks (up.sh, `ordinal kubelet`, the controller,
//   a set rolled and its image changed), then the user guide's `kubectl ordinal set image`, raw
//   `kubectl patch --type=json` and `kubectl wait` lines on that set.
// The commands find `ordinal`, `kubectl-ordinal` and `helm` on the PATH through small shims, kubectl in the
// control plane's bin directory (build.sh builds it), and a HOME of their own. Under CI a missing kubectl or
// helm fails the test instead of skipping it.
import { after, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireControlPlane, startControlPlane, startControllerManager, type ControlPlane } from './control-plane.js';
import { blocksUnder, docLine, installScripts, NOT_RUN, ROOT, withoutComment, type InstallScript } from './doc-commands.js';

const HOME = mkdtempSync(join(tmpdir(), 'ordinal-docs-home-'));
after(() => rmSync(HOME, { recursive: true, force: true }));

/** A directory of shims: `ordinal` and `kubectl-ordinal` from this checkout, `helm` from $ORDINAL_HELM. */
function shims(helm: string | undefined): string {
  const dir = join(HOME, 'shims');
  mkdirSync(dir, { recursive: true });
  const shim = (name: string, target: string) => {
    writeFileSync(join(dir, name), `#!/bin/sh\nexec ${target} "$@"\n`);
    chmodSync(join(dir, name), 0o755);
  };
  shim('ordinal', `${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'bin/ordinal.js'))}`);
  shim('kubectl-ordinal', `${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'bin/kubectl-ordinal.js'))}`);
  if (helm) shim('helm', JSON.stringify(helm));
  return dir;
}

/** kubectl (and helm when asked) for the commands, or why not: a failure under CI, a skip elsewhere. */
function tools(t: TestContext, cp: ControlPlane, needHelm: boolean): { path: string } | undefined {
  const missing: string[] = [];
  if (!existsSync(join(cp.binDir, 'kubectl'))) missing.push(`no kubectl in ${cp.binDir} (scripts/control-plane/build.sh builds it beside kube-apiserver)`);
  const helm = process.env.ORDINAL_HELM;
  if (needHelm && !(helm && existsSync(helm))) missing.push('no helm: ORDINAL_HELM names none (.ci/run builds helm.sh/helm/v3/cmd/helm and sets it)');
  if (missing.length > 0) {
    if (process.env.CI) throw new Error(missing.join('; '));
    t.skip(missing.join('; '));
    return undefined;
  }
  return { path: [shims(helm), cp.binDir, join(HOME, '.local', 'bin'), process.env.PATH ?? ''].join(':') };
}

/** Runs one line in bash from the repository root; fails the test with its output unless it exits 0. */
function run(line: string, env: NodeJS.ProcessEnv, where: string): string {
  const res = spawnSync('bash', ['-c', line], { cwd: ROOT, env, encoding: 'utf8', timeout: 180_000 });
  assert.equal(res.status, 0, `${where}: \`${line}\` exited ${res.status ?? res.signal}\n${res.stdout}\n${res.stderr}`);
  return res.stdout;
}

/** `ordinal kubelet` as a child process: the node of a fresh control plane. */
function startNode(kubeconfig: string): { stop(): void } {
  const child = spawn(process.execPath, [join(ROOT, 'bin/ordinal.js'), 'kubelet', '--kubeconfig', kubeconfig], { stdio: 'ignore' });
  return { stop: () => void child.kill('SIGTERM') };
}

/** One install from nothing: a control plane of its own, plus a node and the Deployment controllers if a line waits for a rollout. */
async function runInstall(script: InstallScript, binDir: string, path: string): Promise<void> {
  const cp = await startControlPlane(binDir, []);
  const stops: (() => void | Promise<void>)[] = [() => cp.stop()];
  try {
    if (script.lines.some((l) => /rollout status deployment\//.test(l.line))) {
      const kcm = await startControllerManager(['deployment-controller', 'replicaset-controller'], { controlPlane: cp });
      stops.unshift(() => kcm.stop());
      const node = startNode(cp.kubeconfigPath);
      stops.unshift(() => node.stop());
    }
    const env = { ...process.env, HOME, PATH: path, KUBECONFIG: cp.kubeconfigPath };
    if (script.lines.some((l) => l.line.includes('dist/kubectl-ordinal.cjs'))) run('node scripts/bundle.mjs', env, 'npm run bundle');
    for (const { file, line } of script.lines) run(line, env, file);
  } finally {
    for (const stop of stops) await stop();
  }
}

describe('the docs’ commands on kube-apiserver 1.37, as written', () => {
  it('runs every install command of README.md, docs/ and deploy/README.md, each install on a fresh control plane', { timeout: 900_000 }, async (t) => {
    const cp = requireControlPlane(t);
    if (!cp) return;
    const found = tools(t, cp, true);
    if (!found) return;
    const { scripts, skipped } = installScripts();
    const ran = scripts.flatMap((s) => s.lines.map((l) => withoutComment(l.line)));
    for (const expected of [
      'kubectl apply -f deploy/namespace.yaml -f deploy/crd.yaml -f deploy/rbac.yaml -f deploy/deployment.yaml',
      'kubectl -n ordinal-system rollout status deployment/ordinal-controller',
      'helm install ordinal deploy/helm/ordinal -n ordinal-system --create-namespace --set target=crd',
      'ordinal manifests --target native --namespace ops | kubectl apply -f -',
    ]) {
      assert.ok(ran.includes(expected), `the docs' install commands include \`${expected}\``);
    }
    for (const s of skipped) t.diagnostic(`not run: ${s.file}: ${s.line} — ${NOT_RUN[withoutComment(s.line)]}`);
    for (const script of scripts) {
      t.diagnostic(`fresh control plane: ${script.lines.map((l) => `${l.file}: ${l.line}`).join(' → ')}`);
      await runInstall(script, cp.binDir, found.path);
    }
  });

  it('tries the operator on the development control plane as its README says, then changes and waits for an image as the user guide says', { timeout: 600_000 }, async (t) => {
    const cp = requireControlPlane(t);
    if (!cp) return;
    const found = tools(t, cp, false);
    if (!found) return;
    const tryIt = blocksUnder('scripts/control-plane/README.md', 'Try the operator on it').flat();
    assert.ok(tryIt.some((l) => l.includes('npx ordinal kubelet &')), 'the README starts `ordinal kubelet`');
    const guide = 'docs/user-guide.md';
    const [setImage, patch, wait] = ['kubectl ordinal set image web ', 'kubectl patch osts web --type=json ', 'kubectl wait osts/web '].map((p) => docLine(guide, p));
    // Between the user guide's lines: back to the manifest's image, and a check that the wait returned only
    // once the rollout had completed (every replica updated and available, the update revision current).
    const reset = 'npx ordinal set image web nginx=nginx:1.28 && npx ordinal rollout status web --timeout 2m';
    const done = `test "$(kubectl get osts web -o jsonpath='{.status.updatedReplicas}/{.status.availableReplicas}/{.spec.replicas} {.spec.template.spec.containers[0].image} {.status.currentRevision}')" = "3/3/3 nginx:1.29 $(kubectl get osts web -o jsonpath='{.status.updateRevision}')"`;
    const dir = mkdtempSync(join(tmpdir(), 'ordinal-dev-'));
    const script = ['set -e', ...tryIt.map((l) => l.replaceAll('/tmp/ordinal-dev', dir)), reset, setImage, wait, done, reset, patch, wait, done].join('\n');
    // Its own process group: the kubelet and the controller the README starts in the background end with it.
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env: { ...process.env, HOME, PATH: found.path, ORDINAL_K8S_BIN: cp.binDir }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => process.kill(-(child.pid ?? 0), 'SIGTERM'), 420_000);
    try {
      const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      assert.equal(code, 0, `the script exited ${code}:\n${script}\n--- output:\n${output}`);
      assert.match(output, /node ordinal-kubelet runs the pods of every namespace/);
      assert.match(output, /default\/web-2 Ready/);
      assert.match(output, /statefulset\.apps\.ordinal\.dev\/web image updated\n/);
      assert.match(output, /statefulset\.apps\.ordinal\.dev\/web patched\n/);
      assert.match(output, /statefulset\.apps\.ordinal\.dev\/web condition met\n/);
    } finally {
      clearTimeout(timer);
      try {
        process.kill(-(child.pid ?? 0), 'SIGTERM');
      } catch {
        // the group has ended already
      }
      spawnSync(join(ROOT, 'scripts/control-plane/down.sh'), [dir, '--purge'], { timeout: 60_000 });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
