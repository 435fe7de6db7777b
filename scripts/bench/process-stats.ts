// Small helpers the benchmark scripts share: a free port, and what /proc and /metrics say about a process.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

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
export function metricValue(exposition: string, name: string): number {
  return Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(exposition)?.[1] ?? 0);
}
