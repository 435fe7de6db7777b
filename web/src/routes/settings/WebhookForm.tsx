import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_WEBHOOK_SCHEDULE,
  PLAY_METHODS,
  TRIGGER_TYPES,
  WEBHOOK_EVENTS,
  WEBHOOK_TYPES,
  webhookProblem,
  type WebhookBody,
  type WebhookFilters,
  type WebhookOptions,
} from '@reelstat/contract';
import { previewSchedule } from '../../api/webhooks';
import { useAllUserActivity, useLibraryOverview } from '../../api/stats';
import { errorMessage } from '../../api/client';
import { STORAGE, usePreference } from '../../store/preferences';

/** The form's state: the Webhook entity (SPEC.md §3) plus the write-only secret. */
export type WebhookDraft = Required<Pick<WebhookBody, 'webhook_type' | 'trigger_type' | 'enabled'>> &
  Pick<WebhookBody, 'id' | 'event_type' | 'schedule' | 'secret'> & {
    name: string;
    url: string;
    options: WebhookOptions;
    filters: WebhookFilters;
  };

/** SPEC.md §4: after a save the form resets to a scheduled discord webhook. */
export const emptyDraft = (): WebhookDraft => ({
  name: '',
  url: '',
  webhook_type: 'discord',
  trigger_type: 'scheduled',
  event_type: null,
  schedule: DEFAULT_WEBHOOK_SCHEDULE,
  enabled: true,
  options: {},
  filters: {},
});

/** What the answers show in place of a URL's credential (Discord's and Slack's tokens, passwords). */
const URL_MASK = '********';
/** ntfy's priorities are 1-5, Gotify's 0-10. */
const PRIORITY_RANGE = { ntfy: [1, 5], gotify: [0, 10] } as const;
const PLAYBACK_EVENTS = new Set(['playback_started', 'playback_ended']);

const SECRET_TYPES = new Set(['generic', 'ntfy', 'gotify', 'telegram', 'email']);

export function WebhookForm({
  draft,
  onChange,
  onSave,
}: {
  draft: WebhookDraft;
  onChange: (draft: WebhookDraft) => void;
  onSave: (draft: WebhookDraft) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<WebhookDraft>) => onChange({ ...draft, ...patch });
  const setOption = (patch: Partial<WebhookOptions>) => set({ options: { ...draft.options, ...patch } });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = webhookProblem(draft);
    setProblem(found);
    if (found) return;
    setSaving(true);
    try {
      await onSave(draft);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={submit} className="card space-y-3" aria-label={t('settings.webhooks.form')} data-testid="webhook-form">
      <h2 className="text-lg font-semibold">
        {draft.id ? t('settings.webhooks.editTitle', { name: draft.name }) : t('settings.webhooks.newTitle')}
      </h2>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id="webhook-name" label={t('settings.webhooks.name')}>
          <input id="webhook-name" className="input" value={draft.name} maxLength={100} onChange={(e) => set({ name: e.target.value })} />
        </Field>
        <Field id="webhook-url" label={t('settings.webhooks.url')}>
          <input
            id="webhook-url"
            className="input"
            value={draft.url}
            maxLength={2000}
            placeholder={draft.webhook_type === 'email' ? 'smtp://mail.example.org:587' : 'https://'}
            onChange={(e) => set({ url: e.target.value })}
            aria-describedby={draft.url.includes(URL_MASK) ? 'webhook-url-masked' : undefined}
          />
          {draft.url.includes(URL_MASK) && (
            <p id="webhook-url-masked" className="mt-1 text-xs text-gray-400">
              {t('settings.webhooks.urlMasked', { mask: URL_MASK })}
            </p>
          )}
        </Field>
        <Field id="webhook-type" label={t('settings.webhooks.type')}>
          <select
            id="webhook-type"
            className="input"
            value={draft.webhook_type}
            onChange={(e) => set({ webhook_type: e.target.value as WebhookDraft['webhook_type'] })}
          >
            {WEBHOOK_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`settings.webhooks.types.${type}`)}
              </option>
            ))}
          </select>
        </Field>
        <Field id="webhook-trigger" label={t('settings.webhooks.trigger')}>
          <select
            id="webhook-trigger"
            className="input"
            value={draft.trigger_type}
            onChange={(e) => set({ trigger_type: e.target.value as WebhookDraft['trigger_type'] })}
          >
            {TRIGGER_TYPES.map((trigger) => (
              <option key={trigger} value={trigger}>
                {t(`settings.webhooks.triggers.${trigger}`)}
              </option>
            ))}
          </select>
        </Field>
        {draft.trigger_type === 'event' ? (
          <Field id="webhook-event" label={t('settings.webhooks.event')}>
            <select
              id="webhook-event"
              className="input"
              value={draft.event_type ?? ''}
              onChange={(e) => set({ event_type: (e.target.value || null) as WebhookDraft['event_type'] })}
            >
              <option value="">{t('settings.webhooks.chooseEvent')}</option>
              {WEBHOOK_EVENTS.map((event) => (
                <option key={event} value={event}>
                  {t(`settings.webhooks.events.${event}`)}
                </option>
              ))}
            </select>
          </Field>
        ) : (
          <Field id="webhook-schedule" label={t('settings.webhooks.schedule')}>
            <input
              id="webhook-schedule"
              className="input font-mono"
              value={draft.schedule ?? ''}
              onChange={(e) => set({ schedule: e.target.value })}
            />
            <SchedulePreview schedule={draft.schedule ?? ''} />
          </Field>
        )}
        {SECRET_TYPES.has(draft.webhook_type) && (
          <Field id="webhook-secret" label={t(`settings.webhooks.secrets.${draft.webhook_type}`)}>
            <input
              id="webhook-secret"
              type="password"
              autoComplete="new-password"
              className="input"
              value={draft.secret ?? ''}
              placeholder={draft.id ? t('settings.webhooks.secretKeep') : ''}
              onChange={(e) => set({ secret: e.target.value || undefined })}
            />
          </Field>
        )}
        {draft.webhook_type === 'telegram' && (
          <Field id="webhook-chat" label={t('settings.webhooks.chatId')}>
            <input
              id="webhook-chat"
              className="input"
              value={draft.options.chat_id ?? ''}
              onChange={(e) => setOption({ chat_id: e.target.value || undefined })}
            />
          </Field>
        )}
        {(draft.webhook_type === 'ntfy' || draft.webhook_type === 'gotify') && (
          <Field
            id="webhook-priority"
            label={t('settings.webhooks.priority', {
              min: PRIORITY_RANGE[draft.webhook_type][0],
              max: PRIORITY_RANGE[draft.webhook_type][1],
            })}
          >
            <input
              id="webhook-priority"
              type="number"
              className="input"
              min={PRIORITY_RANGE[draft.webhook_type][0]}
              max={PRIORITY_RANGE[draft.webhook_type][1]}
              value={draft.options.priority ?? ''}
              onChange={(e) => setOption({ priority: e.target.value === '' ? undefined : Number(e.target.value) })}
            />
          </Field>
        )}
        {draft.webhook_type === 'email' && (
          <>
            {(['from', 'to', 'username'] as const).map((key) => (
              <Field key={key} id={`webhook-${key}`} label={t(`settings.webhooks.${key}`)}>
                <input
                  id={`webhook-${key}`}
                  className="input"
                  value={draft.options[key] ?? ''}
                  onChange={(e) => setOption({ [key]: e.target.value || undefined })}
                />
              </Field>
            ))}
            <Field id="webhook-security" label={t('settings.webhooks.security')}>
              <select
                id="webhook-security"
                className="input"
                value={draft.options.security ?? 'starttls'}
                onChange={(e) => setOption({ security: e.target.value as WebhookOptions['security'] })}
              >
                <option value="starttls">STARTTLS</option>
                <option value="tls">TLS</option>
                <option value="none">{t('settings.webhooks.noTls')}</option>
              </select>
            </Field>
            {draft.options.security !== 'none' && (
              <label className="flex items-center gap-2 text-sm sm:col-span-2">
                <input
                  type="checkbox"
                  checked={draft.options.tls_verify !== false}
                  onChange={(e) => setOption({ tls_verify: e.target.checked ? undefined : false })}
                />
                {t('settings.webhooks.tlsVerify')}
              </label>
            )}
          </>
        )}
      </div>
      {draft.trigger_type === 'event' && draft.event_type && PLAYBACK_EVENTS.has(draft.event_type) && (
        <PlaybackFilters filters={draft.filters} onChange={(filters) => set({ filters })} />
      )}
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
        {t('settings.webhooks.enabled')}
      </label>
      {problem && (
        <p role="alert" className="text-sm text-red-400">
          {problem}
        </p>
      )}
      <div className="flex gap-2">
        <button type="submit" className="btn-primary" disabled={saving}>
          {saving ? t('settings.webhooks.saving') : t('settings.webhooks.save')}
        </button>
        {draft.id !== undefined && (
          <button type="button" className="btn-secondary" onClick={() => onChange(emptyDraft())}>
            {t('settings.webhooks.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}

/**
 * Optional filters of playback webhooks: only these users, libraries, play methods (nothing ticked in a group
 * lets all through). Ids the lists no longer show (a user since removed) are kept as they are.
 */
function PlaybackFilters({ filters, onChange }: { filters: WebhookFilters; onChange: (filters: WebhookFilters) => void }) {
  const { t } = useTranslation();
  const users = useAllUserActivity();
  const libraries = useLibraryOverview();
  const toggle = <K extends keyof WebhookFilters>(key: K, value: NonNullable<WebhookFilters[K]>[number], on: boolean) => {
    const current = (filters[key] ?? []) as string[];
    const next = on ? [...new Set([...current, value])] : current.filter((v) => v !== value);
    onChange({ ...filters, [key]: next.length ? next : undefined });
  };
  const group = (key: keyof WebhookFilters, legend: string, choices: Array<{ id: string; name: string }>) => (
    <fieldset className="min-w-0">
      <legend className="label">{legend}</legend>
      <div className="max-h-40 space-y-1 overflow-y-auto">
        {choices.map((choice) => (
          <label key={choice.id} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={((filters[key] ?? []) as string[]).includes(choice.id)}
              onChange={(e) => toggle(key, choice.id as never, e.target.checked)}
            />
            {choice.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
  return (
    <div className="space-y-1" data-testid="webhook-filters">
      <p className="text-xs text-gray-400">{t('settings.webhooks.filtersHint')}</p>
      <div className="grid gap-3 sm:grid-cols-3">
        {group(
          'users',
          t('settings.webhooks.filterUsers'),
          (users.data ?? []).map((u) => ({ id: u.UserId, name: u.UserName })),
        )}
        {group(
          'libraries',
          t('settings.webhooks.filterLibraries'),
          (libraries.data ?? []).map((l) => ({ id: l.Id, name: l.Name })),
        )}
        {group(
          'play_methods',
          t('settings.webhooks.filterPlayMethods'),
          PLAY_METHODS.map((method) => ({ id: method, name: method })),
        )}
      </div>
    </div>
  );
}

function Field({ id, label, children }: { id: string; label: string; children: React.ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="label">
        {label}
      </label>
      {children}
    </div>
  );
}

/** The next three runs of the cron text, in the server's time zone (asked to the server, debounced). */
function SchedulePreview({ schedule }: { schedule: string }) {
  const { t } = useTranslation();
  const [hour12] = usePreference(STORAGE.hour12, false);
  const [preview, setPreview] = useState<{ runs: string[]; zone: string } | { error: string } | null>(null);
  useEffect(() => {
    const text = schedule.trim() || DEFAULT_WEBHOOK_SCHEDULE;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      previewSchedule(text, controller.signal).then(
        (answer) => setPreview({ runs: answer.next_runs, zone: answer.time_zone }),
        (error: unknown) => {
          if (!controller.signal.aborted) setPreview({ error: errorMessage(error) });
        },
      );
    }, 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [schedule]);
  if (!preview) return null;
  if ('error' in preview)
    return (
      <p className="mt-1 text-xs text-red-400" data-testid="schedule-preview">
        {preview.error}
      </p>
    );
  return (
    <p className="mt-1 text-xs text-gray-400" data-testid="schedule-preview">
      {t('settings.webhooks.nextRuns', { zone: preview.zone })}{' '}
      {preview.runs
        .map((run) => new Date(run).toLocaleString(undefined, { timeZone: preview.zone, dateStyle: 'medium', timeStyle: 'short', hour12 }))
        .join(' · ')}
    </p>
  );
}
