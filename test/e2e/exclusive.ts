// A lock shared by every test process on one control plane (a directory under its DIR: mkdir is atomic).
// Held while a test needs something cluster-wide to itself, e.g. "no statefulset controller of
// kube-controller-manager runs while Ordinal manages apps/v1 StatefulSets". A lock whose owner process
// has died is taken over.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ControlPlane } from './control-plane.js';
import { pause } from './wait.js';

/** Ordinal (--target=native) and kube-controller-manager's statefulset controller both own apps/v1 sets. */
export const APPS_V1_STATEFULSETS = 'apps-v1-statefulsets';

const held = new Set<string>();
process.on('exit', () => {
  for (const dir of held) rmSync(dir, { recursive: true, force: true });
});

function ownerAlive(dir: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(dir, 'owner'), 'utf8').trim());
  } catch {
    return true; // being created right now
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryTake(dir: string): boolean {
  try {
    mkdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    if (!ownerAlive(dir)) rmSync(dir, { recursive: true, force: true });
    return false;
  }
  writeFileSync(join(dir, 'owner'), `${process.pid}\n`);
  held.add(dir);
  return true;
}

/** Waits (at most `timeoutMs`) for the lock; the returned function releases it. */
export async function acquire(cp: ControlPlane, name: string, timeoutMs: number): Promise<() => void> {
  mkdirSync(join(cp.dir, 'locks'), { recursive: true });
  const dir = join(cp.dir, 'locks', name);
  const start = Date.now();
  while (!tryTake(dir)) {
    if (Date.now() - start > timeoutMs) throw new Error(`lock ${dir} still held by another test process after ${timeoutMs / 1000}s`);
    await pause(250);
  }
  return () => {
    held.delete(dir);
    rmSync(dir, { recursive: true, force: true });
  };
}
