import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { setBackupRetention, useBackupSettings } from '../../api/backup';
import { errorMessage } from '../../api/client';
import { Panel } from '../../components/Panel';
import { FormStatus } from './FormStatus';

/** The API's bounds (contract backupSettings). */
const RETENTION = { min: 1, max: 1000 };

/** How many backups the BackupTask keeps (older ones it wrote are deleted; uploads are never pruned). */
export function BackupRetention() {
  const settings = useBackupSettings();
  if (settings.isLoading) return <Panel isLoading>{null}</Panel>;
  return <RetentionField initial={settings.data?.retention ?? 5} />;
}

function RetentionField({ initial }: { initial: number }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(String(initial));
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const number = Number(value);
  const invalid = !Number.isInteger(number) || number < RETENTION.min || number > RETENTION.max;
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (invalid) return;
    setBusy(true);
    setStatus(null);
    try {
      const saved = await setBackupRetention(number);
      setStatus({ ok: true, text: t('settings.backup.retentionSaved', { count: saved.retention }) });
    } catch (error) {
      setStatus({ ok: false, text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="card space-y-3" onSubmit={submit} noValidate aria-labelledby="backup-retention-title">
      <h2 id="backup-retention-title" className="text-lg font-semibold">
        {t('settings.backup.retentionTitle')}
      </h2>
      <div>
        <label htmlFor="backup-retention" className="label">
          {t('settings.backup.retention')}
        </label>
        <input
          id="backup-retention"
          className="input max-w-32"
          type="number"
          min={RETENTION.min}
          max={RETENTION.max}
          step={1}
          value={value}
          aria-invalid={invalid}
          aria-describedby="backup-retention-help"
          onChange={(e) => setValue(e.target.value)}
        />
        <p
          id="backup-retention-help"
          className={`mt-1 text-sm ${invalid ? 'text-red-400' : 'text-gray-400'}`}
          role={invalid ? 'alert' : undefined}
        >
          {t('settings.backup.retentionHelp', RETENTION)}
        </p>
      </div>
      <FormStatus status={status} />
      <button type="submit" className="btn-primary" disabled={busy || invalid}>
        {t('common.save')}
      </button>
    </form>
  );
}
