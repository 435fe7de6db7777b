import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { setMonitorSettings, useMonitorSettings } from '../../api/settings';
import { errorMessage } from '../../api/client';
import { ACTIVE_INTERVAL, IDLE_INTERVAL, validateMonitor } from '../../lib/rules';
import { FormStatus } from './FormStatus';
import { Panel } from '../../components/Panel';

/** The fields appear once the saved values are known (the recommended ones when they cannot be read). */
export function ActivityMonitorForm() {
  const settings = useMonitorSettings();
  if (settings.isLoading) return <Panel isLoading>{null}</Panel>;
  return (
    <MonitorFields
      initialActive={settings.data?.activeSessionsInterval ?? ACTIVE_INTERVAL.recommended}
      initialIdle={settings.data?.idleInterval ?? IDLE_INTERVAL.recommended}
    />
  );
}

function MonitorFields({ initialActive, initialIdle }: { initialActive: number; initialIdle: number }) {
  const { t } = useTranslation();
  const [active, setActive] = useState(String(initialActive));
  const [idle, setIdle] = useState(String(initialIdle));
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const check = validateMonitor(Number(active), Number(idle));
  const invalid = check.activeError !== null || check.idleError !== null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (invalid) return;
    setBusy(true);
    setStatus(null);
    try {
      await setMonitorSettings({ activeSessionsInterval: Number(active), idleInterval: Number(idle) });
      setStatus({ ok: true, text: t('settings.monitor.applied') });
    } catch (error) {
      setStatus({ ok: false, text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="space-y-3" onSubmit={submit} noValidate aria-labelledby="monitor-title">
      <h3 id="monitor-title" className="font-semibold text-white">
        {t('settings.monitor.title')}
      </h3>
      <p className="text-sm text-gray-400">
        {t('settings.monitor.recommended', { active: ACTIVE_INTERVAL.recommended, idle: IDLE_INTERVAL.recommended })}
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor="monitor-active" className="label">
            {t('settings.monitor.active')}
          </label>
          <input
            id="monitor-active"
            className="input"
            type="number"
            min={ACTIVE_INTERVAL.min}
            max={ACTIVE_INTERVAL.max}
            step={ACTIVE_INTERVAL.step}
            value={active}
            aria-invalid={check.activeError !== null}
            aria-describedby="monitor-active-error"
            onChange={(e) => setActive(e.target.value)}
          />
          {check.activeError && (
            <p id="monitor-active-error" className="mt-1 text-sm text-red-400" role="alert">
              {t('settings.monitor.activeRange', { min: ACTIVE_INTERVAL.min, max: ACTIVE_INTERVAL.max, step: ACTIVE_INTERVAL.step })}
            </p>
          )}
        </div>
        <div>
          <label htmlFor="monitor-idle" className="label">
            {t('settings.monitor.idle')}
          </label>
          <input
            id="monitor-idle"
            className="input"
            type="number"
            min={IDLE_INTERVAL.min}
            max={IDLE_INTERVAL.max}
            step={IDLE_INTERVAL.step}
            value={idle}
            aria-invalid={check.idleError !== null}
            aria-describedby="monitor-idle-error"
            onChange={(e) => setIdle(e.target.value)}
          />
          {check.idleError && (
            <p id="monitor-idle-error" className="mt-1 text-sm text-red-400" role="alert">
              {t('settings.monitor.idleRange', { min: IDLE_INTERVAL.min, max: IDLE_INTERVAL.max, step: IDLE_INTERVAL.step })}
            </p>
          )}
        </div>
      </div>
      {check.warning && (
        <p className="text-sm text-amber-300" data-testid="monitor-warning">
          {t('settings.monitor.warning')}
        </p>
      )}
      <FormStatus status={status} />
      <button type="submit" className="btn-primary" disabled={busy || invalid}>
        {busy ? t('common.validating') : t('common.save')}
      </button>
    </form>
  );
}
