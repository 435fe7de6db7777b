import { useRouteError } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

/** Shown instead of a screen that failed to render: the sidebar stays, the message is plain. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  console.error(error);
  return (
    <div className="card max-w-xl space-y-3" role="alert">
      <h1 className="text-lg font-semibold text-white">{t('common.crashed')}</h1>
      <p className="break-words text-sm text-gray-400">{error instanceof Error ? error.message : String(error)}</p>
      <button type="button" className="btn-secondary" onClick={() => window.location.reload()}>
        {t('common.reload')}
      </button>
    </div>
  );
}
