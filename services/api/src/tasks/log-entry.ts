import type { TaskLogLine, TaskRunRow } from '@reelstat/core';
import type { LogEntry } from '@reelstat/contract';

/** A task run as SPEC.md's Log entry (Duration in seconds, so far while it runs). */
export function toLogEntry(run: TaskRunRow & { lines: TaskLogLine[] }): LogEntry {
  const started = new Date(run.started_at);
  const end = run.finished_at ? new Date(run.finished_at) : new Date();
  return {
    Id: run.id,
    Name: run.name,
    Type: run.type,
    ExecutionType: run.execution_type,
    TimeRun: started.toISOString(),
    Duration: Math.max(0, Math.round((end.getTime() - started.getTime()) / 1000)),
    Result: run.result,
    Progress: run.progress,
    Log: run.lines.map((line) => ({ Message: line.message, color: line.color, At: new Date(line.at).toISOString() })),
  };
}
