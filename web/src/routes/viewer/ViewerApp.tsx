import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, NavLink, Outlet, RouterProvider } from 'react-router-dom';
import type { MeAnswer } from '@reelstat/contract';
import { apiBase } from '../../api/api-base';
import { Panel } from '../../components/Panel';
import { RouteError } from '../RouteError';
import { logout } from '../Sidebar';
import { SocketProvider } from '../../socket/socket';
import { useHistoryRefresh } from '../../socket/history-refresh';
import { OwnSessions } from './OwnSessions';

const UserDetail = lazy(() => import('../users/UserDetail'));
const StatCardGrid = lazy(() => import('../home/StatCards').then((module) => ({ default: module.StatCardGrid })));

/** The server-wide cards of the last 30 days, when the administrator shares them (`serverStats`). */
const SHARED_DAYS = 30;
const NotFound = lazy(() => import('../NotFound'));
const YearReview = lazy(() => import('../year-review/YearReview'));
const ItemDetail = lazy(() => import('../items/ItemDetail'));
const LibraryDetail = lazy(() => import('../libraries/LibraryDetail'));

/**
 * What a viewer sees (docs/security.md, "Roles"): their own statistics, history and timeline, on one page with
 * tabs, and their own live sessions (the socket sends a viewer only theirs); the item and library pages their
 * history links to, with their own plays. No other users, no settings.
 */
function ViewerLayout({ me }: { me: MeAnswer }) {
  const { t } = useTranslation();
  return (
    <SocketProvider>
      <HistoryRefresh />
      <div className="min-h-screen">
        <header className="flex items-center gap-4 border-b border-gray-800 px-4 py-3">
          <span className="text-xl font-bold text-white">Reelstat</span>
          <nav aria-label={t('nav.label')} className="flex flex-1 items-center gap-2">
            <NavLink to="/" end className="rounded-md px-3 py-2 text-sm text-blue-300">
              {t('auth.myStats')}
            </NavLink>
          </nav>
          <span className="text-sm text-gray-400">{me.username}</span>
          <button type="button" className="btn-secondary px-3 py-1 text-sm" onClick={logout}>
            {t('nav.logout')}
          </button>
        </header>
        <main className="mx-auto w-full max-w-7xl p-3 sm:p-6">
          <Suspense fallback={<Panel isLoading>{null}</Panel>}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </SocketProvider>
  );
}

/** Refetches the viewer's own page when their history changes (inside the socket's provider). */
function HistoryRefresh() {
  useHistoryRefresh();
  return null;
}

function OwnPage({ me }: { me: MeAnswer }) {
  const { t } = useTranslation();
  if (!me.mediaUser)
    return (
      <p role="alert" className="card text-gray-300">
        {t('auth.notLinked')}
      </p>
    );
  return (
    <>
      <OwnSessions />
      <UserDetail ownUserId={me.mediaUser.userId} />
      {me.serverStats && (
        <section aria-labelledby="server-stats-title" className="mt-8">
          <h2 id="server-stats-title" className="mb-3 text-lg font-semibold text-white">
            {t('home.watchStatistics')}{' '}
            <span className="text-sm font-normal text-gray-400">{t('common.lastDays', { count: SHARED_DAYS })}</span>
          </h2>
          <StatCardGrid days={SHARED_DAYS} forViewer />
        </section>
      )}
    </>
  );
}

let router: ReturnType<typeof createBrowserRouter> | null = null;

export function ViewerApp({ me }: { me: MeAnswer }) {
  router ??= createBrowserRouter(
    [
      {
        element: <ViewerLayout me={me} />,
        errorElement: <RouteError />,
        children: [
          { path: '/', element: <OwnPage me={me} /> },
          { path: '/year-in-review', element: me.mediaUser ? <YearReview ownUserId={me.mediaUser.userId} /> : <OwnPage me={me} /> },
          // Links from the viewer's history and timeline: the item or library with their own plays of it.
          { path: '/libraries/item/:itemId', element: <ItemDetail viewer /> },
          { path: '/libraries/:libraryId', element: <LibraryDetail viewer /> },
          { path: '*', element: <NotFound /> },
        ],
      },
    ],
    { basename: apiBase || '/' },
  );
  return <RouterProvider router={router} />;
}
