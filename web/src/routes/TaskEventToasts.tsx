import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { useSocketEvent } from '../socket/socket';
import { toast } from '../components/toasts';
import type { TaskEvent } from '../api/types';

const TASK_EVENTS = ['PlaybackSyncTask', 'PartialSyncTask', 'FullSyncTask', 'BackupTask', 'TaskError', 'GeneralAlert'] as const;

function TaskEventToast({ event }: { event: (typeof TASK_EVENTS)[number] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  useSocketEvent<TaskEvent>(event, (payload) => {
    const message = payload?.message ?? t(`tasks.names.${event}`, { defaultValue: event });
    // One toast per task: Start opens it, Update changes it, Success/Error finish it (and it closes in 5 s).
    const id = `task-${event}`;
    if (payload?.type === 'Success') {
      toast.success(message, id);
      void queryClient.invalidateQueries();
    } else if (payload?.type === 'Error' || event === 'TaskError') toast.error(message, id);
    else if (payload?.type === 'Start' || payload?.type === 'Update') toast.loading(message, id);
    else toast.info(message, event === 'GeneralAlert' ? undefined : id);
  });
  return null;
}

/** Background task events (SPEC.md §4) become toasts. */
export function TaskEventToasts() {
  return (
    <>
      {TASK_EVENTS.map((event) => (
        <TaskEventToast key={event} event={event} />
      ))}
    </>
  );
}
