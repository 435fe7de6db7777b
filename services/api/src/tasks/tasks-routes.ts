import { TaskService } from '@reelstat/core';
import {
  logsAnswer,
  logsQuery,
  messageAnswer,
  setTaskSettingsBody,
  stopTaskQuery,
  taskListAnswer,
  taskSettingsObject,
  taskSettingsQuery,
} from '@reelstat/contract';
import { route } from '../http/api-routes.js';
import { toLogEntry } from './log-entry.js';

export const tasksRoutes = [
  route({
    method: 'get',
    path: '/api/stopTask',
    tag: 'tasks',
    summary: 'Stop a running task, on whichever process runs it (409 when it is not running)',
    access: 'admin',
    query: stopTaskQuery,
    response: messageAnswer,
    handle: async ({ query, runtime }) => new TaskService(runtime).stop(query.task),
  }),
  route({
    method: 'get',
    path: '/api/getTaskSettings',
    tag: 'tasks',
    summary: 'Every task with its type, state and interval (minutes; null for IMPORT tasks); ?as=object keys them by both names',
    access: 'admin',
    query: taskSettingsQuery,
    response: taskListAnswer.or(taskSettingsObject),
    handle: async ({ query, runtime }) => {
      const list = await new TaskService(runtime).list();
      if (query.as === 'list') return list;
      return Object.fromEntries(
        list.flatMap((t) => [t.name, t.task].map((name) => [name, { Interval: t.Interval, running: t.running }] as const)),
      );
    },
  }),
  route({
    method: 'post',
    path: '/api/setTaskSettings',
    tag: 'tasks',
    summary: 'Set the interval of a scheduled task (SPEC.md §9 values only)',
    access: 'admin',
    body: setTaskSettingsBody,
    response: taskListAnswer,
    handle: async ({ body, runtime }) => new TaskService(runtime).setInterval(body.taskname, body.Interval),
  }),
  route({
    method: 'get',
    path: '/logs/getLogs',
    tag: 'tasks',
    summary: 'Task runs, newest first, with their console-style log lines',
    access: 'admin',
    query: logsQuery,
    response: logsAnswer,
    handle: async ({ query, runtime }) => (await new TaskService(runtime).runs.list(query.limit, query.offset)).map(toLogEntry),
  }),
];
