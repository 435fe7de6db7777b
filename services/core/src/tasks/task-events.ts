import type { EventBus } from '../bus/event-bus.js';
import { publishUiEvent } from '../bus/ui-events.js';
import type { TaskName } from './task-types.js';

/** Bus channel on which any process asks the process running a task to stop it. */
export const TASK_CONTROL_CHANNEL = 'task-control';

export interface TaskControlMessage {
  action: 'stop';
  name: string;
}

/** SPEC.md §4 background task events: the socket.io event is the task's name. */
export type TaskEventType = 'Start' | 'Update' | 'Success' | 'Error';

export interface TaskEvent {
  type: TaskEventType;
  message: string;
  /** 0–100 on Update. */
  progress?: number;
  runId: string;
}

export async function publishTaskEvent(bus: EventBus, name: TaskName, event: TaskEvent): Promise<void> {
  await publishUiEvent(bus, name, event);
}
