// What Linux says about a process under test (/proc): its memory, its CPU time, how long it waited for its core.
import { readFileSync, writeFileSync } from 'node:fs';

/** Resident set size of a process in MB (VmRSS; VmHWM: its peak since start or resetPeakRss), or NaN once it has gone. */
export function rssMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Sets a process's VmHWM to its present RSS (clear_refs 5), so that it reads the peak from here on; false if refused. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

const CLOCK_TICKS = 100; // USER_HZ: 100 on every Linux this runs on

/** CPU time (user + system) a process has used so far, in milliseconds; NaN once it has gone. */
export function cpuMs(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/**
 * How long other processes kept a server's main thread (a Node server's event loop) from its core while it was ready
 * to run, in milliseconds so far: its wait on the run queue (/proc/PID/schedstat) less the CPU time of its own other
 * threads (GC helpers, libuv's pool), which share its pinned core. NaN once it has gone.
 */
export function waitedForCoreMs(pid: number): number {
  try {
    const [running, waiting] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return waiting! / 1e6 - (cpuMs(pid) - running! / 1e6);
  } catch {
    return NaN;
  }
}

/** CPU time of this process (the load generator) and of its children that have exited (wrk), in milliseconds. */
export function generatorCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS;
}
