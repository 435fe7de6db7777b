import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { setTaskSettings, startTask, stopTask, useTaskSettings } from '../../api/settings';
import { errorMessage } from '../../api/client';
import type { Task } from '../../api/types';
import { useSocketEvent } from '../../socket/socket';
import { toast } from '../../components/toasts';
import { TASK_INTERVALS } from '../../lib/rules';
import { Panel } from '../../components/Panel';

/** Merges the latest pushed task list over the loaded one (a push wins, name by name). */
export function mergeTasks(loaded: readonly Task[], pushed: readonly Task[] | null): Task[] {
  const byName = new Map(loaded.map((task) => [task.name, task]));
  for (const task of pushed ?? []) byName.set(task.name, task);
  return [...byName.values()];
}

export function TasksTable() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const settings = useTaskSettings();
  const [pushed, setPushed] = useState<Task[] | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  useSocketEvent<Task[]>('task-list', (list) => {
    if (Array.isArray(list)) setPushed(list);
  });
  const tasks = mergeTasks(settings.data ?? [], pushed);

  async function act(task: Task) {
    setPending(task.name);
    try {
      if (task.running) await stopTask(task.name);
      else await startTask(task.name);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setPending(null);
    }
  }
  async function changeInterval(taskname: string, interval: number) {
    try {
      await setTaskSettings(taskname, interval);
      setPushed((list) => list && list.map((task) => (task.name === taskname ? { ...task, Interval: interval } : task)));
      await queryClient.invalidateQueries({ queryKey: ['task-settings'] });
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }

  return (
    <section aria-labelledby="tasks-title">
      <h3 id="tasks-title" className="mb-2 font-semibold text-white">
        {t('tasks.title')}
      </h3>
      <Panel isLoading={settings.isLoading} error={settings.error} isEmpty={tasks.length === 0} empty="tasks.empty">
        <div className="overflow-x-auto rounded-lg border border-gray-800">
          <table className="table" data-testid="tasks-table">
            <thead>
              <tr>
                <th>{t('tasks.task')}</th>
                <th>{t('tasks.type')}</th>
                <th>{t('tasks.interval')}</th>
                <th>
                  <span className="sr-only">{t('tasks.action')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tasks.map((task) => {
                const interval = task.Interval ?? 15;
                return (
                  <tr key={task.name}>
                    <td>{t(`tasks.names.${task.name}`, { defaultValue: task.name })}</td>
                    <td>{task.type}</td>
                    <td>
                      {task.type === 'IMPORT' ? (
                        '-'
                      ) : (
                        <select
                          className="input w-36"
                          aria-label={t('tasks.intervalFor', { task: t(`tasks.names.${task.name}`, { defaultValue: task.name }) })}
                          value={interval}
                          onChange={(e) => void changeInterval(task.name, Number(e.target.value))}
                        >
                          {TASK_INTERVALS.map((minutes) => (
                            <option key={minutes} value={minutes}>
                              {t('tasks.minutes', { count: minutes })}
                            </option>
                          ))}
                        </select>
                      )}
                    </td>
                    <td className="text-right">
                      <button
                        type="button"
                        className={task.running ? 'btn-danger' : 'btn-primary'}
                        disabled={pending === task.name}
                        onClick={() => void act(task)}
                      >
                        {task.running ? t('tasks.stop') : t('tasks.start')}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </Panel>
    </section>
  );
}
