import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage, isNotFound } from '../api/client';

interface PanelProps {
  isLoading: boolean;
  error?: unknown;
  isEmpty?: boolean;
  /** i18n key of the empty message. */
  empty?: string;
  children: ReactNode;
}

/** The one loading / error / empty panel: every data view goes through it. */
export function Panel({ isLoading, error, isEmpty, empty = 'common.noData', children }: PanelProps) {
  const { t } = useTranslation();
  if (isLoading)
    return (
      <div className="flex items-center gap-2 py-6 text-sm text-gray-400" role="status">
        <span className="h-4 w-4 animate-spin rounded-full border-2 border-gray-600 border-t-blue-400" aria-hidden />
        {t('common.loading')}
      </div>
    );
  // An endpoint that answers 404 (not there yet, or nothing for this id) shows the empty state; the cause goes to
  // the console, as SPEC.md §8 does for list-loading failures.
  if (error && isNotFound(error)) {
    console.warn(errorMessage(error));
    return <div className="rounded-md border border-gray-800 px-3 py-6 text-center text-sm text-gray-400">{t(empty)}</div>;
  }
  if (error)
    return (
      <div className="rounded-md border border-red-900 bg-red-950/40 px-3 py-4 text-sm text-red-300" role="alert">
        {t('common.loadError')}: {errorMessage(error)}
      </div>
    );
  if (isEmpty) return <div className="rounded-md border border-gray-800 px-3 py-6 text-center text-sm text-gray-400">{t(empty)}</div>;
  return <>{children}</>;
}
