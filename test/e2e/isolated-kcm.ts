// kube-controller-manager instances of a test's own. kcm.sh keeps one instance per DIR (its pid file), and
// other test files start theirs in the control plane's DIR, so each instance here gets a directory of
// its own that links the control plane's kubeconfig, certificates and settings: several can run at
// once without stopping each other.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { startControllerManager, stopControllerManager, type ControlPlane } from './control-plane.js';

export interface KcmInstance {
  port: number;
  dir: string;
  /** The last lines of its log. */
  tail(n?: number): string;
  stop(): Promise<void>;
}

const SHARED = ['admin.kubeconfig', 'pki', 'env', 'feature-gates'];

// A test process that dies mid-test must not leave its instances running.
const live = new Set<string>();
process.on('exit', () => {
  for (const dir of live) {
    try {
      process.kill(Number(readFileSync(join(dir, 'kube-controller-manager.pid'), 'utf8')), 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

export async function startIsolatedKcm(cp: ControlPlane, controllers: string[], args: string[] = []): Promise<KcmInstance> {
  const dir = mkdtempSync(join(cp.dir, 'kcm-'));
  for (const f of SHARED) if (existsSync(join(cp.dir, f))) symlinkSync(join(cp.dir, f), join(dir, f));
  mkdirSync(join(dir, 'logs'));
  const own: ControlPlane = { ...cp, dir };
  const log = join(dir, 'logs', 'kube-controller-manager.log');
  const tail = (n = 30) => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-n).join('\n') : '');
  let kcm;
  try {
    kcm = await startControllerManager(controllers, { controlPlane: own, args });
  } catch (e) {
    const message = `${e instanceof Error ? e.message : String(e)}\n${tail()}`;
    rmSync(dir, { recursive: true, force: true });
    throw new Error(message);
  }
  live.add(dir);
  return {
    port: kcm.port,
    dir,
    tail,
    async stop() {
      await stopControllerManager(own);
      live.delete(dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
