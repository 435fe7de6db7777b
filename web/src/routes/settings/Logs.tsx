import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLogs } from '../../api/logs';
import { Panel } from '../../components/Panel';
import { Pager } from '../../components/inputs';
import { formatDateTime, formatDuration } from '../../lib/format';
import { STORAGE, usePreference } from '../../store/preferences';

const PAGE = 10;

/** Green for success, yellow for running, red otherwise. */
export function resultBadgeClass(result: string): string {
  const r = result.toLowerCase();
  if (r === 'success') return 'bg-emerald-700 text-emerald-50';
  if (r === 'running') return 'bg-amber-500 text-gray-950';
  return 'bg-red-700 text-red-50';
}

export function Logs() {
  const { t } = useTranslation();
  const logs = useLogs();
  const [hour12] = usePreference(STORAGE.hour12, false);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const list = logs.data ?? [];
  const pages = Math.max(1, Math.ceil(list.length / PAGE));
  const current = Math.min(page, pages);
  return (
    <Panel isLoading={logs.isLoading} error={logs.error} isEmpty={list.length === 0} empty="settings.logs.empty">
      <div className="overflow-x-auto rounded-lg border border-gray-800">
        <table className="table" data-testid="logs-table">
          <thead>
            <tr>
              <th>
                <span className="sr-only">{t('activity.expand')}</span>
              </th>
              <th>{t('settings.logs.name')}</th>
              <th>{t('settings.logs.type')}</th>
              <th>{t('settings.logs.timeRun')}</th>
              <th>{t('settings.logs.duration')}</th>
              <th>{t('settings.logs.execution')}</th>
              <th>{t('settings.logs.result')}</th>
            </tr>
          </thead>
          <tbody>
            {list.slice((current - 1) * PAGE, current * PAGE).map((log) => {
              const id = String(log.Id);
              const expanded = open === id;
              return (
                <Fragment key={id}>
                  <tr>
                    <td>
                      <button
                        type="button"
                        className="btn-secondary px-2 py-0.5"
                        aria-expanded={expanded}
                        aria-label={t('activity.expand')}
                        onClick={() => setOpen(expanded ? null : id)}
                      >
                        {expanded ? '−' : '+'}
                      </button>
                    </td>
                    <td className="whitespace-nowrap">{log.Name}</td>
                    <td>{log.Type}</td>
                    <td className="whitespace-nowrap">{formatDateTime(log.TimeRun, hour12)}</td>
                    <td className="whitespace-nowrap">{formatDuration(log.Duration)}</td>
                    <td>{log.ExecutionType}</td>
                    <td>
                      <span className={`badge ${resultBadgeClass(log.Result)}`}>{log.Result}</span>
                    </td>
                  </tr>
                  {expanded && (
                    <tr>
                      <td colSpan={7} className="bg-black p-0">
                        <pre className="max-h-80 overflow-auto p-3 font-mono text-xs" data-testid="log-console">
                          {(log.Log ?? []).map((line, index) => (
                            <div key={index} style={{ color: line.color ?? undefined }}>
                              {line.Message}
                            </div>
                          ))}
                        </pre>
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="mt-3 flex justify-end">
        <Pager page={current} pages={pages} onPage={setPage} />
      </div>
    </Panel>
  );
}
