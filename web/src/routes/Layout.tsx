import { Suspense, useEffect, useState } from 'react';
import { Outlet } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Sidebar } from './Sidebar';
import { SocketProvider } from '../socket/socket';
import { TaskEventToasts } from './TaskEventToasts';
import { useHistoryRefresh } from '../socket/history-refresh';
import { Panel } from '../components/Panel';
import { OneServerNotice } from './servers/OneServerNotice';

/** Sidebar + the routed screen; the socket lives here (only logged-in screens use it). */
export function Layout() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  return (
    <SocketProvider>
      <HistoryRefresh />
      <TaskEventToasts />
      <div className="flex min-h-screen">
        <Sidebar open={open} onNavigate={() => setOpen(false)} />
        {open && (
          // On phones the open menu covers the page; a tap beside it or Escape closes it.
          <div className="fixed inset-0 z-20 bg-black/60 lg:hidden" aria-hidden onClick={() => setOpen(false)} />
        )}
        <div className="min-w-0 flex-1">
          <header className="flex items-center gap-3 border-b border-gray-800 px-4 py-3 lg:hidden">
            <button
              type="button"
              className="btn-secondary px-2 py-1"
              aria-label={t('nav.menu')}
              aria-expanded={open}
              onClick={() => setOpen(!open)}
            >
              ☰
            </button>
            <span className="font-semibold">Reelstat</span>
          </header>
          <main className="mx-auto w-full max-w-7xl p-3 sm:p-6">
            <OneServerNotice />
            <Suspense fallback={<Panel isLoading>{null}</Panel>}>
              <Outlet />
            </Suspense>
          </main>
        </div>
      </div>
    </SocketProvider>
  );
}

/** Refetches what open pages show when the history changes (inside the socket's provider). */
function HistoryRefresh() {
  useHistoryRefresh();
  return null;
}
