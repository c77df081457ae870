// `ordinal controller` as a child process (`node bin/ordinal.js controller …`), the way a user runs it:
// its JSON log lines are kept in memory for assertions and diagnostics, and it can be stopped
// gracefully (SIGTERM) or killed (SIGKILL) like a crashed pod.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { waitUntil } from './wait.js';

const BIN = fileURLToPath(new URL('../../bin/ordinal.js', import.meta.url));
const KEEP_LINES = 2000;

export interface ControllerOptions {
  kubeconfig: string;
  /** Namespaces to reconcile (the controller never touches other tests' objects). */
  namespaces: string[];
  target?: 'crd' | 'native' | 'both';
  leaderElect?: { namespace: string; id: string };
  featureGates?: string;
  /** Client-side API rate limit (default 100/200, as the e2e suite's kube-controller-manager). */
  rate?: { qps: number; burst: number };
  args?: string[];
  /** A label for diagnostics, e.g. `a` and `b` of two candidates. */
  label?: string;
}

export interface LogLine {
  msg?: string;
  level?: number;
  [key: string]: unknown;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export class ControllerProcess {
  readonly exited: Promise<Exit>;
  private readonly child: ChildProcess;
  private readonly lines: string[] = [];
  private partial = '';
  private exit: Exit | undefined;

  /** `command` replaces `node bin/ordinal.js controller <options>`, e.g. with a container engine running the image. */
  constructor(
    readonly options: ControllerOptions,
    command: readonly [string, string[]] = [process.execPath, [BIN, 'controller', ...controllerArgs(options)]],
  ) {
    this.child = spawn(command[0], command[1], { stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(this.child);
    this.child.stdout?.on('data', (chunk: Buffer) => this.take(chunk));
    this.child.stderr?.on('data', (chunk: Buffer) => this.take(chunk));
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        running.delete(this.child);
        this.exit = { code, signal };
        resolve(this.exit);
      });
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get label(): string {
    return this.options.label ?? `pid ${this.pid}`;
  }

  isRunning(): boolean {
    return this.exit === undefined;
  }

  /** Every complete log line parsed as JSON (non-JSON lines come back as `{ msg: line }`). */
  logs(): LogLine[] {
    return this.lines.map((l) => {
      try {
        return JSON.parse(l) as LogLine;
      } catch {
        return { msg: l };
      }
    });
  }

  tail(n = 40): string {
    return this.lines.slice(-n).join('\n');
  }

  /** Waits for a log line whose `msg` matches; returns it. */
  async waitForLog(msg: string | RegExp, timeoutMs: number): Promise<LogLine> {
    let hit: LogLine | undefined;
    await waitUntil(`controller ${this.label} to log "${String(msg)}"`, timeoutMs, () => {
      if (this.exit) throw new Error(`controller ${this.label} exited (${JSON.stringify(this.exit)}):\n${this.tail()}`);
      hit = this.logs().find((l) => (typeof msg === 'string' ? l.msg === msg : msg.test(l.msg ?? '')));
      return hit !== undefined;
    }, 100);
    return hit!;
  }

  /** SIGTERM (graceful: drains syncs, releases the Lease), then SIGKILL if it hangs. */
  async stop(timeoutMs = 30_000): Promise<Exit> {
    if (this.exit) return this.exit;
    this.child.kill('SIGTERM');
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs)));
    const done = await Promise.race([this.exited, late]);
    clearTimeout(timer);
    return done ?? this.kill();
  }

  /** Sends `sig` (e.g. SIGSTOP and SIGCONT, to freeze the process and let it go on). */
  signal(sig: NodeJS.Signals): void {
    if (!this.exit) this.child.kill(sig);
  }

  /** SIGKILL: no shutdown, no Lease release, as a node failure or OOM kill. */
  async kill(): Promise<Exit> {
    if (this.exit) return this.exit;
    this.child.kill('SIGKILL');
    return this.exited;
  }

  private take(chunk: Buffer): void {
    const text = this.partial + chunk.toString('utf8');
    const parts = text.split('\n');
    this.partial = parts.pop() ?? '';
    this.lines.push(...parts.filter((l) => l.trim() !== ''));
    if (this.lines.length > KEEP_LINES) this.lines.splice(0, this.lines.length - KEEP_LINES);
  }
}

export function controllerArgs(o: ControllerOptions): string[] {
  const args = [
    `--kubeconfig=${o.kubeconfig}`,
    `--target=${o.target ?? 'crd'}`,
    `--namespace=${o.namespaces.join(',')}`,
    '--metrics-bind-address=0',
    '--health-probe-bind-address=0',
    '--log-format=json',
    `--kube-api-qps=${o.rate?.qps ?? 100}`,
    `--kube-api-burst=${o.rate?.burst ?? 200}`,
    '--graceful-shutdown-timeout=10s',
  ];
  if (o.leaderElect) args.push('--leader-elect=true', `--leader-elect-namespace=${o.leaderElect.namespace}`, `--leader-elect-id=${o.leaderElect.id}`);
  if (o.featureGates) args.push(`--feature-gates=${o.featureGates}`);
  return [...args, ...(o.args ?? [])];
}

export function startController(options: ControllerOptions): ControllerProcess {
  return new ControllerProcess(options);
}
