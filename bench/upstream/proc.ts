// A controller process's CPU time and memory from /proc (Linux), as `top` and the kubelet read them.
import { readFileSync } from 'node:fs';

/** USER_HZ: /proc/PID/stat counts CPU time in clock ticks of 1/100 s on Linux. */
const TICKS_PER_SECOND = 100;

/** User + system CPU time of `pid` so far, in milliseconds. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the command name (field 2) may contain spaces: count fields after its closing parenthesis
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error(`cannot read CPU time from /proc/${pid}/stat`);
  return ((utime + stime) * 1000) / TICKS_PER_SECOND;
}

/** Peak resident set size (VmHWM) of `pid`, in MiB. */
export function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmHWM:\s+(\d+) kB/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(kb) / 1024;
}
