import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { purge, type PurgeTarget } from '../../api/library';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../components/Modal';
import { toast } from '../../components/toasts';

/** Purge: choose with or without activity, confirm, call delete, then go back one page (SPEC.md §4). */
export function PurgeOptions({ target, id, name }: { target: PurgeTarget; id: string; name: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [withActivity, setWithActivity] = useState<boolean | null>(null);
  async function run(activity: boolean) {
    setWithActivity(null);
    try {
      await purge(target, id, activity);
      toast.success(t('purge.done', { name }));
      navigate(-1);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }
  return (
    <div className="card max-w-xl space-y-3">
      <h2 className="text-lg font-semibold text-white">{t('purge.title')}</h2>
      <p className="text-sm text-gray-400">{t('purge.explain')}</p>
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn-danger" onClick={() => setWithActivity(false)}>
          {t('purge.withoutActivity')}
        </button>
        <button type="button" className="btn-danger" onClick={() => setWithActivity(true)}>
          {t('purge.withActivity')}
        </button>
      </div>
      {withActivity !== null && (
        <ConfirmDialog
          title={t('purge.confirmTitle')}
          message={withActivity ? t('purge.confirmWith', { name }) : t('purge.confirmWithout', { name })}
          confirmLabel={t('purge.confirm')}
          onConfirm={() => void run(withActivity)}
          onClose={() => setWithActivity(null)}
        />
      )}
    </div>
  );
}
