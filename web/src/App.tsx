import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { ApiError } from './api/client';
import { apiBase } from './api/api-base';
import { useConfig, useMe, useSetupState } from './api/auth';
import { takeOidcOutcome } from './api/oidc-return';
import { getStoredToken, STORAGE } from './store/preferences';
import { startTokenRenewal } from './api/token-renewal';
import { Toaster } from './components/toasts';
import { Layout } from './routes/Layout';
import { RouteError } from './routes/RouteError';
import { Panel } from './components/Panel';

const Setup = lazy(() => import('./routes/setup/Setup'));
const Login = lazy(() => import('./routes/login/Login'));
const ViewerApp = lazy(() => import('./routes/viewer/ViewerApp').then((module) => ({ default: module.ViewerApp })));

// Once, before anything reads the stored token: an OpenID Connect sign-in comes back in the address's fragment.
const oidcError = takeOidcOutcome();

// Route-level code splitting: each screen is its own chunk.
const Home = lazy(() => import('./routes/home/Home'));
const Settings = lazy(() => import('./routes/settings/Settings'));
const Users = lazy(() => import('./routes/users/Users'));
const UserDetail = lazy(() => import('./routes/users/UserDetail'));
const Libraries = lazy(() => import('./routes/libraries/Libraries'));
const LibraryDetail = lazy(() => import('./routes/libraries/LibraryDetail'));
const ItemDetail = lazy(() => import('./routes/items/ItemDetail'));
const Statistics = lazy(() => import('./routes/statistics/Statistics'));
const Activity = lazy(() => import('./routes/activity/Activity'));
const Timeline = lazy(() => import('./routes/timeline/Timeline'));
const YearReview = lazy(() => import('./routes/year-review/YearReview'));
const About = lazy(() => import('./routes/about/About'));
const TestingSessions = lazy(() => import('./routes/testing/TestingSessions'));
const TestingStats = lazy(() => import('./routes/testing/TestingStats'));
const NotFound = lazy(() => import('./routes/NotFound'));

/** The router base: BASE_URL as the server injects it ("/" without one). */
function routerBase(): string {
  return apiBase || '/';
}

function withErrorElement(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) => ({ ...route, errorElement: <RouteError /> }));
}

let router: ReturnType<typeof createBrowserRouter> | null = null;
function appRouter() {
  router ??= createBrowserRouter(
    [
      {
        element: <Layout />,
        children: withErrorElement([
          { path: '/', element: <Home /> },
          { path: '/settings', element: <Settings /> },
          { path: '/users', element: <Users /> },
          { path: '/users/:userId', element: <UserDetail /> },
          { path: '/libraries', element: <Libraries /> },
          { path: '/libraries/item/:itemId', element: <ItemDetail /> },
          { path: '/libraries/:libraryId', element: <LibraryDetail /> },
          { path: '/statistics', element: <Statistics /> },
          { path: '/activity', element: <Activity /> },
          { path: '/timeline', element: <Timeline /> },
          { path: '/year-in-review', element: <YearReview /> },
          { path: '/about', element: <About /> },
          { path: '/testing/sessions', element: <TestingSessions /> },
          { path: '/testing/stats', element: <TestingStats /> },
          { path: '*', element: <NotFound /> },
        ]),
      },
    ],
    { basename: routerBase() },
  );
  return router;
}

function FullScreen({ children }: { children: React.ReactNode }) {
  return <div className="flex min-h-screen items-center justify-center p-4">{children}</div>;
}

function Loading() {
  return (
    <FullScreen>
      <Panel isLoading>{null}</Panel>
    </FullScreen>
  );
}

/** Setup state routing (SPEC.md §2 App shell): 0 setup, 1 or no token login, 2 dashboard. */
export function App() {
  const { t } = useTranslation();
  const setup = useSetupState();
  const hasToken = getStoredToken() !== null;
  const state = setup.data?.state;
  // Who is signed in decides the app: a viewer gets their own pages, never the administrator's configuration.
  const me = useMe(state === 2);
  const viewer = me.data?.role === 'viewer' ? me.data : undefined;
  // With require-login off the config answers without a token, so it is asked for even without one.
  const config = useConfig(state === 2 && !me.isLoading && !viewer);
  // A viewer is refused the configuration (pages that ask for it get a 403): that is their role, not a stale session.
  const denied = !viewer && config.error instanceof ApiError && (config.error.status === 401 || config.error.status === 403);

  // Short-lived login tokens: renewed silently while the dashboard is open (api/token-renewal.ts).
  useEffect(() => (hasToken ? startTokenRenewal() : undefined), [hasToken]);

  useEffect(() => {
    // A 401/403 on the config with a stored token: the session is stale. Clear it and start over (SPEC.md §4).
    if (denied && hasToken) {
      localStorage.clear();
      window.location.reload();
    }
    if (config.data) localStorage.setItem(STORAGE.config, JSON.stringify(config.data));
  }, [denied, hasToken, config.data]);

  let screen: React.ReactNode;
  if (setup.isLoading) screen = <Loading />;
  else if (setup.error || state === undefined)
    screen = (
      <FullScreen>
        <p role="alert" className="text-lg text-red-400">
          {t('app.unreachable', { product: 'Reelstat' })}
        </p>
      </FullScreen>
    );
  else if (state === 0) screen = <Setup step={1} />;
  else if (state === 1) screen = hasToken ? <Setup step={2} /> : <Login oidcError={oidcError} />;
  else if (me.isLoading) screen = <Loading />;
  else if (viewer) screen = <ViewerApp me={viewer} />;
  else if (config.isLoading) screen = <Loading />;
  else if (denied) screen = hasToken ? <Loading /> : <Login oidcError={oidcError} />;
  else if (config.error)
    screen = (
      <FullScreen>
        <p role="alert" className="text-lg text-red-400">
          {t('app.configError')}
        </p>
      </FullScreen>
    );
  else screen = <RouterProvider router={appRouter()} />;

  return (
    <>
      <Suspense fallback={<Loading />}>{screen}</Suspense>
      <Toaster />
    </>
  );
}
