import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { TOGGLE_EVENTS, type WebhookAnswer } from '@reelstat/contract';
import { deleteWebhook, saveWebhook, testWebhook, updateWebhook, useWebhooks } from '../../api/webhooks';
import { errorMessage } from '../../api/client';
import { Panel } from '../../components/Panel';
import { Switch } from '../../components/inputs';
import { emptyDraft, WebhookForm, type WebhookDraft } from './WebhookForm';
import { WebhookDeliveries } from './WebhookDeliveries';

type Alert = { ok: boolean; text: string };

/** SPEC.md §2 Settings → Webhooks: the form, the three event toggles and the table, plus a delivery log. */
export function Webhooks() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const webhooks = useWebhooks();
  const [draft, setDraft] = useState<WebhookDraft>(emptyDraft);
  const [alert, setAlert] = useState<Alert | null>(null);
  const [generated, setGenerated] = useState<string | null>(null);
  const [logFor, setLogFor] = useState<WebhookAnswer | null>(null);
  const list = webhooks.data ?? [];
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['webhooks'] });

  async function save(form: WebhookDraft) {
    try {
      const saved = await saveWebhook({ ...form, schedule: form.trigger_type === 'scheduled' ? form.schedule : null });
      setGenerated(saved.generated_secret ?? null);
      setAlert({ ok: true, text: 'Webhook saved successfully!' });
      setDraft(emptyDraft());
      await refresh();
    } catch (error) {
      setAlert({ ok: false, text: `Error while saving webhook ${errorMessage(error)}` });
    }
  }

  /** SPEC.md §4: no webhook for the event pre-fills the form; otherwise every webhook of the event is flipped. */
  async function toggle(event: (typeof TOGGLE_EVENTS)[number], enabled: boolean) {
    const ofEvent = list.filter((w) => w.trigger_type === 'event' && w.event_type === event);
    if (ofEvent.length === 0) {
      setDraft({ ...emptyDraft(), enabled: true, trigger_type: 'event', event_type: event, url: '', schedule: null });
      return;
    }
    try {
      for (const webhook of ofEvent) await updateWebhook(webhook.id, { enabled });
      await refresh();
    } catch (error) {
      setAlert({ ok: false, text: `Error while editing webhook: ${errorMessage(error)}` });
    }
  }

  async function test(webhook: WebhookAnswer | undefined) {
    if (!webhook) return setAlert({ ok: false, text: 'Impossible to test the webhook: no webhook provided' });
    try {
      await testWebhook(webhook.id);
      setAlert({ ok: true, text: `Webhook ${webhook.name} test triggered successfully!` });
      await queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', webhook.id] });
    } catch (error) {
      setAlert({ ok: false, text: `Error during the test of the webhook: ${errorMessage(error)}` });
    }
  }

  async function remove(webhook: WebhookAnswer) {
    try {
      const answer = await deleteWebhook(webhook.id);
      setAlert({ ok: true, text: answer.message });
      if (logFor?.id === webhook.id) setLogFor(null);
      await refresh();
    } catch (error) {
      setAlert({ ok: false, text: errorMessage(error) });
    }
  }

  const edit = (w: WebhookAnswer) =>
    setDraft({
      id: w.id,
      name: w.name,
      url: w.url,
      webhook_type: w.webhook_type,
      trigger_type: w.trigger_type,
      event_type: w.event_type,
      schedule: w.schedule,
      enabled: w.enabled,
      options: w.options,
      filters: w.filters,
    });

  return (
    <div className="space-y-4">
      <WebhookForm draft={draft} onChange={setDraft} onSave={save} />
      {alert && (
        <div
          role={alert.ok ? 'status' : 'alert'}
          className={`flex items-start justify-between gap-2 rounded-md px-3 py-2 text-sm ${alert.ok ? 'bg-emerald-950 text-emerald-300' : 'bg-red-950 text-red-300'}`}
        >
          <span>{alert.text}</span>
          <button type="button" aria-label={t('common.close')} onClick={() => setAlert(null)}>
            ×
          </button>
        </div>
      )}
      {generated && (
        <div className="card border-blue-700 text-sm" data-testid="generated-secret">
          <p className="mb-1 text-gray-300">{t('settings.webhooks.secretOnce')}</p>
          <code className="break-all text-blue-300">{generated}</code>
        </div>
      )}
      <div className="card flex flex-wrap gap-6" data-testid="event-toggles">
        {TOGGLE_EVENTS.map((event) => {
          const ofEvent = list.filter((w) => w.trigger_type === 'event' && w.event_type === event);
          const on = ofEvent.length > 0 && ofEvent.every((w) => w.enabled);
          return (
            <div key={event} className="flex items-center gap-2 text-sm">
              <Switch checked={on} label={t(`settings.webhooks.events.${event}`)} onChange={(value) => void toggle(event, value)} />
              <span>{t(`settings.webhooks.events.${event}`)}</span>
            </div>
          );
        })}
      </div>
      <Panel isLoading={webhooks.isLoading} error={webhooks.error} isEmpty={list.length === 0} empty="settings.webhooks.empty">
        <div className="overflow-x-auto rounded-lg border border-gray-800">
          <table className="table" data-testid="webhooks-table">
            <thead>
              <tr>
                <th>{t('settings.webhooks.name')}</th>
                <th>{t('settings.webhooks.type')}</th>
                <th>{t('settings.webhooks.trigger')}</th>
                <th>{t('settings.webhooks.enabled')}</th>
                <th>
                  <span className="sr-only">{t('settings.webhooks.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((webhook) => (
                <tr key={webhook.id}>
                  <td>{webhook.name}</td>
                  <td>{t(`settings.webhooks.types.${webhook.webhook_type}`)}</td>
                  <td className="text-sm">
                    {webhook.trigger_type === 'event' && webhook.event_type ? (
                      t(`settings.webhooks.events.${webhook.event_type}`)
                    ) : (
                      <code>{webhook.schedule}</code>
                    )}
                  </td>
                  <td>{webhook.enabled ? t('settings.webhooks.yes') : t('settings.webhooks.no')}</td>
                  <td className="whitespace-nowrap text-right">
                    <button
                      type="button"
                      className="btn-secondary mr-1 px-2 py-1"
                      aria-label={t('settings.webhooks.editOne', { name: webhook.name })}
                      onClick={() => edit(webhook)}
                    >
                      {t('settings.webhooks.edit')}
                    </button>
                    <button
                      type="button"
                      className="btn-secondary mr-1 px-2 py-1"
                      aria-label={t('settings.webhooks.testOne', { name: webhook.name })}
                      onClick={() => void test(webhook)}
                    >
                      {t('settings.webhooks.test')}
                    </button>
                    <button
                      type="button"
                      className="btn-secondary mr-1 px-2 py-1"
                      aria-label={t('settings.webhooks.logOne', { name: webhook.name })}
                      aria-pressed={logFor?.id === webhook.id}
                      onClick={() => setLogFor(logFor?.id === webhook.id ? null : webhook)}
                    >
                      {t('settings.webhooks.log')}
                    </button>
                    <button
                      type="button"
                      className="btn-danger px-2 py-1"
                      aria-label={t('settings.webhooks.deleteOne', { name: webhook.name })}
                      onClick={() => void remove(webhook)}
                    >
                      {t('common.delete')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Panel>
      {logFor && <WebhookDeliveries webhook={logFor} onAlert={setAlert} />}
    </div>
  );
}
