import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { WebhookAnswer } from '@reelstat/contract';
import { retryDelivery, useWebhookDeliveries } from '../../api/webhooks';
import { errorMessage } from '../../api/client';
import { Panel } from '../../components/Panel';
import { Pager } from '../../components/inputs';
import { formatDateTime } from '../../lib/format';
import { STORAGE, usePreference } from '../../store/preferences';

const STATUS_CLASS: Record<string, string> = {
  delivered: 'text-emerald-400',
  dead: 'text-red-400',
  pending: 'text-amber-300',
  sending: 'text-blue-300',
};

/** The delivery log of one webhook: status, attempts, last answer, next retry; dead deliveries can be retried. */
export function WebhookDeliveries({
  webhook,
  onAlert,
}: {
  webhook: WebhookAnswer;
  onAlert: (alert: { ok: boolean; text: string }) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [hour12] = usePreference(STORAGE.hour12, false);
  const [page, setPage] = useState(1);
  const log = useWebhookDeliveries(webhook.id, page);
  const rows = log.data?.results ?? [];

  async function retry(deliveryId: number) {
    try {
      onAlert({ ok: true, text: (await retryDelivery(webhook.id, deliveryId)).message });
      await queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', webhook.id] });
    } catch (error) {
      onAlert({ ok: false, text: errorMessage(error) });
    }
  }

  return (
    <section className="space-y-2" data-testid="webhook-deliveries">
      <h2 className="text-lg font-semibold">{t('settings.webhooks.logTitle', { name: webhook.name })}</h2>
      <Panel isLoading={log.isLoading} error={log.error} isEmpty={rows.length === 0} empty="settings.webhooks.noDeliveries">
        <div className="overflow-x-auto rounded-lg border border-gray-800">
          <table className="table">
            <thead>
              <tr>
                <th>{t('settings.webhooks.created')}</th>
                <th>{t('settings.webhooks.event')}</th>
                <th>{t('settings.webhooks.status')}</th>
                <th>{t('settings.webhooks.attempts')}</th>
                <th>{t('settings.webhooks.response')}</th>
                <th>{t('settings.webhooks.nextRetry')}</th>
                <th>
                  <span className="sr-only">{t('settings.webhooks.retry')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  <td className="whitespace-nowrap">{formatDateTime(row.created_at, hour12)}</td>
                  <td>{row.event}</td>
                  <td className={STATUS_CLASS[row.status]}>{t(`settings.webhooks.statuses.${row.status}`)}</td>
                  <td>{row.attempts}</td>
                  <td className="max-w-xs truncate text-xs" title={row.last_error ?? undefined}>
                    {row.last_status_code ?? ''} {row.last_error ?? ''}
                  </td>
                  <td className="whitespace-nowrap">{row.next_attempt_at ? formatDateTime(row.next_attempt_at, hour12) : ''}</td>
                  <td className="text-right">
                    {row.status === 'dead' && (
                      <button type="button" className="btn-secondary px-2 py-1" onClick={() => void retry(row.id)}>
                        {t('settings.webhooks.retry')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="mt-3 flex justify-end">
          <Pager page={page} pages={Math.max(1, log.data?.pages ?? 1)} onPage={setPage} />
        </div>
      </Panel>
    </section>
  );
}
