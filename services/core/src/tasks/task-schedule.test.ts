import { describe, expect, it } from 'vitest';
import { TaskRegistry, taskRegistry } from './task-registry.js';
import { dueTasks } from './task-schedule.js';

const minute = 60_000;

describe('task schedule', () => {
  const start = Date.parse('2026-11-01T00:00:00Z');

  it('fires a scheduled task its interval after it last started, or after the schedule started when it never ran', () => {
    const all = taskRegistry.all;
    expect(dueTasks(all, {}, new Map(), start, start + 14 * minute)).toEqual([]);
    expect(dueTasks(all, {}, new Map(), start, start + 15 * minute)).toEqual(['PartialSyncTask', 'FullSyncTask']);
    const lastStarts = new Map([
      ['PartialSyncTask', new Date(start + 10 * minute)],
      ['FullSyncTask', new Date(start)],
    ]);
    expect(dueTasks(all, { FullSyncTask: 1440 }, lastStarts, start, start + 26 * minute)).toEqual(['PartialSyncTask']);
    // The backup's default interval is a day (BackupTask.defaultInterval), not SPEC's 15 minutes.
    expect(dueTasks(all, { FullSyncTask: 1440 }, lastStarts, start, start + 1440 * minute)).toEqual([
      'PartialSyncTask',
      'FullSyncTask',
      'BackupTask',
    ]);
  });

  it('never schedules IMPORT tasks', () => {
    expect(dueTasks(taskRegistry.all, {}, new Map(), start, start + 100_000 * minute)).not.toContain('PlaybackSyncTask');
  });

  it('refuses a registry with a task registered twice', () => {
    const [first] = taskRegistry.all;
    expect(() => new TaskRegistry([first!, first!])).toThrow('task "PartialSyncTask" is registered twice');
    expect(taskRegistry.inGroup(first!.group)).toEqual(['PartialSyncTask', 'FullSyncTask']);
  });
});
