import { fullSyncTask, partialSyncTask, playbackSyncTask } from '../sync/sync-tasks.js';
import { backupTask } from '../backup/backup-task.js';
import type { TaskDefinition, TaskName } from './task-types.js';

/** Every task, one line each. */
const definitions: TaskDefinition[] = [partialSyncTask, fullSyncTask, playbackSyncTask, backupTask];

export class TaskRegistry {
  private readonly byName = new Map<string, TaskDefinition>();

  /** Fails at start-up on a duplicate name, so a typo cannot leave two handlers for one task. */
  constructor(readonly all: readonly TaskDefinition[] = definitions) {
    for (const definition of all) {
      if (this.byName.has(definition.name)) throw new Error(`task "${definition.name}" is registered twice`);
      this.byName.set(definition.name, definition);
    }
  }

  get(name: string): TaskDefinition | undefined {
    return this.byName.get(name);
  }

  /** Queue kinds (one per exclusion group). */
  get groups(): string[] {
    return [...new Set(this.all.map((d) => d.group))];
  }

  inGroup(group: string): TaskName[] {
    return this.all.filter((d) => d.group === group).map((d) => d.name);
  }
}

export const taskRegistry = new TaskRegistry();
