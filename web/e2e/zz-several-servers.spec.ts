import { expect, test, type Page } from '@playwright/test';
import { adminToken, api, ensureReady, openLoggedIn, until } from './helpers.js';
import { SIM_API_KEY, startSimulator, type Started } from './stack.js';

/**
 * Several media servers: an Emby simulator added from Settings next to the suite's server, then the switcher
 * in the app shell scopes the users table to one server or shows every server's users. Runs last (zz-): the
 * added server is removed at the end, and other specs expect one linked server.
 */
let emby: Started;
const EMBY_ONLY_USER = 'Den Guest';

test.beforeAll(async () => {
  await ensureReady();
  emby = await startSimulator({ flavor: 'emby', seed: 7 });
  // A user only the Emby server has, so each server's users table can be told apart.
  const added = await fetch(new URL('/__control/users', emby.url), {
    method: 'POST',
    headers: { 'X-Emby-Token': SIM_API_KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: EMBY_ONLY_USER }),
  });
  expect(added.status).toBe(201);
});

test.afterAll(async () => {
  const token = await adminToken();
  const servers = await api<Array<{ Id: string; Kind: string; IsDefault: boolean }>>('/api/mediaServers', { token });
  for (const server of servers.filter((s) => !s.IsDefault)) await api(`/api/mediaServers/${server.Id}`, { method: 'DELETE', token });
  await emby?.stop();
});

/** Rows of the users table whose user link is exactly this name (names can contain one another). */
const rowsNamed = (page: Page, name: string) => page.getByTestId('user-row').filter({ has: page.getByRole('link', { name, exact: true }) });

interface UserRow {
  UserName: string;
}

test('adding a server in Settings, then switching between servers and All servers', async ({ page }) => {
  test.setTimeout(300_000);
  await openLoggedIn(page, '/settings');
  const add = page.getByRole('form', { name: 'Add a server' });
  await add.getByLabel('Server URL').fill(emby.url);
  await add.getByLabel('API key').fill('not-the-key');
  await add.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByText('Connection failed: The media server rejected the API key')).toBeVisible();
  await add.getByLabel('API key').fill(SIM_API_KEY);
  await add.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByText(/Connection works: Emby/)).toBeVisible();
  await add.getByLabel('Name (optional)').fill('Den Emby');
  await add.getByRole('button', { name: 'Add a server' }).click();
  await expect(page.getByText('Den Emby added; a full sync has started')).toBeVisible();
  await expect(page.getByTestId('media-server-row')).toHaveCount(2);

  // The users of each server, from the API, once the new server's sync has stored them.
  const token = await adminToken();
  const servers = await api<Array<{ Id: string; Name: string; IsDefault: boolean }>>('/api/mediaServers', { token });
  const den = servers.find((server) => server.Name === 'Den Emby')!;
  const embyUsers = await until(
    'the Emby users',
    async () => {
      const rows = await api<UserRow[]>(`/stats/getAllUserActivity?serverId=${den.Id}`, { token });
      return rows.length > 0 ? rows.map((row) => row.UserName) : undefined;
      // The sync waits for the suite's first one to end, and an empty answer may be cached for a minute.
    },
    200_000,
  );
  const defaultUsers = (await api<UserRow[]>('/stats/getAllUserActivity', { token })).map((row) => row.UserName);
  expect(defaultUsers).not.toContain(EMBY_ONLY_USER);
  const onlyEmby = EMBY_ONLY_USER;
  // Both simulators generate the same names; the default server's table is told apart by its row count.
  const shared = defaultUsers.find((name) => embyUsers.includes(name))!;

  const switcher = page.getByTestId('server-switcher');
  await expect(switcher).toBeVisible();
  await switcher.selectOption({ label: 'Den Emby' });
  await page.getByRole('link', { name: 'Users' }).click();
  const search = page.getByRole('searchbox', { name: 'Search users' });
  await search.fill(onlyEmby);
  await expect(rowsNamed(page, onlyEmby)).toHaveCount(1);
  await search.fill(shared);
  await expect(rowsNamed(page, shared)).toHaveCount(1);

  // Remembered in the browser.
  await page.reload();
  await expect(page.getByTestId('server-switcher')).toHaveValue(den.Id);

  await page.getByTestId('server-switcher').selectOption({ label: 'All servers' });
  const searchAll = page.getByRole('searchbox', { name: 'Search users' });
  // The user both servers have is listed twice (once per server), the Emby-only one once.
  await searchAll.fill(shared);
  await expect(rowsNamed(page, shared)).toHaveCount(2);
  await searchAll.fill(onlyEmby);
  await expect(rowsNamed(page, onlyEmby)).toHaveCount(1);

  // Screens that show one server at a time say so under "All servers", name the server shown (no silent
  // default) and let the user pick another, which switches the app to it; the summing screens show no notice.
  const defaultServer = servers.find((server) => server.IsDefault)!;
  const notice = page.getByTestId('one-server-notice');
  await expect(notice).toHaveCount(0);
  // The libraries list honours "All servers": every server's libraries, each card naming its server.
  await until(
    'the Emby library cards',
    async () => ((await api<unknown[]>(`/stats/getLibraryCardStats?serverId=${den.Id}`, { token })).length > 0 ? true : undefined),
    120_000,
  );
  const exactly = (name: string) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  const cardsOf = (name: string) =>
    page.getByTestId('library-card').filter({ has: page.getByTestId('library-server').filter({ hasText: exactly(name) }) });
  await page.getByRole('link', { name: 'Libraries', exact: true }).click();
  await expect(cardsOf('Den Emby').first()).toBeVisible();
  await expect(cardsOf(defaultServer.Name).first()).toBeVisible();
  await expect(notice).toHaveCount(0);
  for (const screen of ['Timeline', 'Settings']) {
    await page.getByRole('link', { name: screen, exact: true }).click();
    await expect(notice).toContainText(`it shows one server at a time. Showing ${defaultServer.Name}.`);
    await expect(notice.getByLabel('Server shown on this screen')).toHaveValue(defaultServer.Id);
  }
  await notice.getByLabel('Server shown on this screen').selectOption({ label: 'Den Emby' });
  await expect(page.getByTestId('server-switcher')).toHaveValue(den.Id);
  await expect(notice).toHaveCount(0);
  // Opening another server's library from the "All servers" list switches to that server (a library is one server's).
  await page.getByTestId('server-switcher').selectOption({ label: 'All servers' });
  await page.getByRole('link', { name: 'Libraries', exact: true }).click();
  await cardsOf('Den Emby').first().click();
  await expect(page).toHaveURL(/\/libraries\/[^/]+$/);
  await expect(page.getByTestId('server-switcher')).toHaveValue(den.Id);
  await expect(notice).toHaveCount(0);
  // The timeline's user list holds every server's users under "All servers"; a timeline is one user's, so choosing
  // another server's user switches to that server.
  await page.getByTestId('server-switcher').selectOption({ label: 'All servers' });
  await page.getByRole('link', { name: 'Timeline', exact: true }).click();
  await page.getByLabel('User').selectOption({ label: `${onlyEmby} (Den Emby)` });
  await expect(page.getByTestId('server-switcher')).toHaveValue(den.Id);
  await expect(notice).toHaveCount(0);
  await expect(page.getByLabel('User').locator('option:checked')).toHaveText(onlyEmby);
  await page.getByTestId('server-switcher').selectOption({ label: 'All servers' });
  await page.getByRole('link', { name: 'Users', exact: true }).click();
  await expect(notice).toHaveCount(0);

  // Back to the default server: the Emby server's users are gone from the table.
  await page.getByTestId('server-switcher').selectOption({ label: `${defaultServer.Name} (default)` });
  await searchAll.fill(onlyEmby);
  await expect(rowsNamed(page, onlyEmby)).toHaveCount(0);
  await searchAll.fill(shared);
  await expect(rowsNamed(page, shared)).toHaveCount(1);
});
