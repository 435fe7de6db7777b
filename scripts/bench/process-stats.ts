// Small helpers the benchmark scripts share: a free port, and what /proc and /metrics say about a process.
import { readFileSync } from 'node:fs';
import { freePort, metricValue as kitMetricValue } from '../../services/core/src/test-support/test-kit.js';

export { freePort };

const CLOCK_TICKS = 100;
/** utime + stime of a process, in seconds (0 once it is gone). */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** cutime + cstime of a process: the CPU of its children that have exited and been waited for, in seconds. */
export function reapedChildrenCpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** Resident memory now (VmRSS) or at its peak (VmHWM), in MB (0 once the process is gone). */
export function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    return Math.round(Number(line?.split(/\s+/)[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}

/** The first sample of a metric in a Prometheus text exposition (labels ignored), or 0. */
/** A sample's value in a Prometheus exposition (0 when absent). */
export function metricValue(exposition: string, name: string): number {
  return kitMetricValue(exposition, name) ?? 0;
}
