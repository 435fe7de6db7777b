// `npm run screenshots`: a screenshot of every screen into docs/screenshots/, taken in the system's Chromium from
// the built dashboard, a fresh Reelstat and the simulator (with plays recorded so the screens have data).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { ROOT, SIM_API_KEY, startReelstat, startSimulator, type Started } from '../web/e2e/stack.js';
import { demoLogin, signIn } from './demo-login.js';
import { waitFor } from '../services/core/src/test-support/test-kit.js';

const OUT = path.join(ROOT, 'docs/screenshots');
const BROWSER = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((file) => existsSync(file));

function log(message: string) {
  process.stdout.write(`[screenshots] ${message}\n`);
}

async function call<T>(base: string, token: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(new URL(route, base), {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function control<T>(sim: Started, route: string, body?: unknown, method = body === undefined ? 'GET' : 'POST'): Promise<T> {
  const response = await fetch(new URL(`/__control${route}`, sim.url), {
    method,
    headers: { 'X-Emby-Token': SIM_API_KEY, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`sim ${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Waits for the stack to reach a state (test-kit's waitFor, checked once a second). */
const until = (what: string, probe: () => Promise<boolean>, timeoutMs = 90_000) => waitFor(what, probe, { timeoutMs, intervalMs: 1000 });

/** Plays through the simulator: most are stopped (history), `keep` stay on (live sessions). */
async function seedPlays(base: string, token: string, sim: Started, count: number, keep: number) {
  // Short plays count (minimumPlaySeconds 0) and are final at once (no merge window), so history fills now.
  await call(base, token, '/api/setActivityMonitorSettings', {
    activeSessionsInterval: 500,
    idleInterval: 1000,
    minimumPlaySeconds: 0,
    mergeWindowMinutes: 0,
  }).catch((error: unknown) => log(`activity monitor settings not applied: ${String(error)}`));
  const users = (await control<Array<{ id: string; isHidden: boolean; isDisabled: boolean }>>(sim, '/users')).filter(
    (u) => !u.isHidden && !u.isDisabled,
  );
  const movies = await control<string[]>(sim, '/items?type=Movie&limit=40');
  const episodes = await control<string[]>(sim, '/items?type=Episode&limit=40');
  const clients = ['jellyfin-web', 'jellyfin-android', 'jellyfin-ios', 'android-tv'];
  const plays: Array<{ playId: string }> = [];
  for (let index = 0; index < count; index += 1) {
    const items = index % 4 === 3 ? episodes : movies;
    plays.push(
      await control(sim, '/plays', {
        userId: users[index % users.length]!.id,
        itemId: items[(index * 7) % items.length],
        client: clients[index % clients.length],
        deviceId: `shots-${index}`,
        method: index % 3 === 0 ? 'Transcode' : 'DirectPlay',
        remote: index % 4 === 0,
      }),
    );
  }
  await new Promise((resolve) => setTimeout(resolve, 6000));
  // A play may already have ended on its own (the simulator ends plays that reach their end).
  for (const play of plays.slice(keep)) await control(sim, `/plays/${play.playId}/stop`, {}).catch(() => undefined);
}

async function shoot(page: Page, name: string, route: string, prepare?: (page: Page) => Promise<void>) {
  await page.goto(route);
  await page.waitForLoadState('networkidle');
  await page.locator('main, form, section').first().waitFor();
  if (prepare) {
    try {
      await prepare(page);
    } catch (error) {
      // e.g. no history row to open yet: that screen is left out rather than shot wrong.
      log(`${name}.png skipped: ${String(error).split('\n')[0]}`);
      return;
    }
  }
  await page.waitForTimeout(800);
  await page.screenshot({ path: path.join(OUT, `${name}.png`), fullPage: true });
  log(`${name}.png  (${route})`);
}

/** The year-in-review PNG card exactly as the API renders it (the picture people share). */
async function saveYearCard(base: string, token: string, userId: string) {
  const year = new Date().getFullYear();
  const response = await fetch(new URL(`/api/getYearInReviewCard?year=${year}&userId=${encodeURIComponent(userId)}`, base), {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (!response.ok) return log(`year-in-review-card.png skipped: ${response.status}`);
  writeFileSync(path.join(OUT, 'year-in-review-card.png'), Buffer.from(await response.arrayBuffer()));
  log('year-in-review-card.png  (GET /api/getYearInReviewCard)');
}

mkdirSync(OUT, { recursive: true });
log('building the dashboard…');
execFileSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
  cwd: path.join(ROOT, 'web'),
  stdio: 'inherit',
});

const sim = await startSimulator({ scale: 'small', traffic: 'off' });
const stack: Started[] = [sim];
try {
  const reelstat = await startReelstat({
    ADMIN_USERNAME: demoLogin.username,
    ADMIN_PASSWORD: demoLogin.password,
    MEDIA_SERVER_URL: sim.url,
    MEDIA_SERVER_API_KEY: SIM_API_KEY,
  });
  stack.push(reelstat);
  const base = reelstat.url;
  const token = await signIn(base);
  // Linking may already have started the first full sync (409): waiting for its success below is what matters.
  await call(base, token, '/sync/beginSync').catch((error: unknown) => log(`full sync not started here: ${String(error)}`));
  await until('the first full sync', async () =>
    (await call<Array<{ Name: string; Result: string }>>(base, token, '/logs/getLogs')).some(
      (log) => log.Name === 'FullSyncTask' && log.Result === 'Success',
    ),
  );
  // The activity monitor picks the linked server up shortly after start: give it a few polls.
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  log('recording plays…');
  await seedPlays(base, token, sim, 24, 3);
  await until(
    'plays in the history',
    async () => (await call<{ total: number }>(base, token, '/api/getHistory?size=10&page=1')).total > 0,
    60_000,
  ).catch((error: unknown) => log(String(error)));

  const libraries = await call<Array<{ Id: string; Name: string; CollectionType: string }>>(base, token, '/api/getLibraries');
  const shows = libraries.find((library) => library.CollectionType === 'tvshows') ?? libraries[0]!;
  const users = await call<Array<{ UserId: string; TotalPlays: number }>>(base, token, '/stats/getAllUserActivity');
  const user = [...users].sort((a, b) => b.TotalPlays - a.TotalPlays)[0]!;
  const series = await call<Array<{ Id: string; Type: string }>>(base, token, '/stats/getLibraryItemsWithStats', {
    libraryid: shows.Id,
  }).catch(() => []);
  const item = series.find((entry) => entry.Type === 'Series') ?? series[0];

  const browser = await chromium.launch({
    executablePath: BROWSER,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: base });
  // Browser-side code as text: this script is type-checked without the DOM library.
  const seed = {
    token: token,
    PREF_TIMELINE_USER: JSON.stringify(user.UserId),
    PREF_TIMELINE_LIBRARIES: JSON.stringify(libraries.map((library) => library.Id)),
  };
  await context.addInitScript({
    content: `if (!sessionStorage.getItem('screenshots-init')) {
      sessionStorage.setItem('screenshots-init', '1');
      for (const [key, value] of Object.entries(${JSON.stringify(seed)})) localStorage.setItem(key, value);
    }`,
  });
  const page = await context.newPage();
  await shoot(page, 'home', '/');
  await shoot(page, 'libraries', '/libraries');
  await shoot(page, 'library-overview', `/libraries/${shows.Id}`);
  await shoot(page, 'library-items', `/libraries/${shows.Id}`, (p) => p.getByRole('tab', { name: 'Media items' }).click());
  if (item) await shoot(page, 'item', `/libraries/item/${item.Id}`);
  await shoot(page, 'users', '/users');
  await shoot(page, 'user-overview', `/users/${user.UserId}`);
  await shoot(page, 'user-activity', `/users/${user.UserId}`, (p) => p.getByRole('tab', { name: 'Activity' }).click());
  await shoot(page, 'activity', '/activity');
  await shoot(page, 'activity-stream-details', '/activity', async (p) => {
    await p.getByTestId('activity-row').first().locator('td:nth-child(6) button').click({ timeout: 5000 });
  });
  await shoot(page, 'statistics', '/statistics');
  await shoot(page, 'timeline', '/timeline');
  await shoot(page, 'year-in-review', `/year-in-review?user=${encodeURIComponent(user.UserId)}`, async (p) => {
    await p.getByRole('button', { name: 'Make the shareable card' }).click();
    await p.getByTestId('year-card').waitFor({ timeout: 15_000 });
  });
  await saveYearCard(base, token, user.UserId);
  await shoot(page, 'settings-general', '/settings', (p) => p.getByRole('tab', { name: 'General' }).click());
  await shoot(page, 'settings-libraries', '/settings', (p) => p.getByRole('tab', { name: 'Library settings' }).click());
  await shoot(page, 'settings-api-keys', '/settings', (p) => p.getByRole('tab', { name: 'API keys' }).click());
  await shoot(page, 'settings-logs', '/settings', async (p) => {
    await p.getByRole('tab', { name: 'Logs' }).click();
    await p.getByRole('button', { name: 'Expand row' }).first().click({ timeout: 5000 });
  });
  await shoot(page, 'about', '/about');
  await shoot(page, 'testing-sessions', '/testing/sessions');
  await shoot(page, 'testing-stats', '/testing/stats');

  const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, baseURL: base, isMobile: true, hasTouch: true });
  await phone.addInitScript({ content: `localStorage.setItem('token', ${JSON.stringify(token)});` });
  await shoot(await phone.newPage(), 'home-phone', '/');

  // A viewer's home: the most active user signs in with their media-server account and sees their own pages.
  const viewerUser = (await control<Array<{ id: string; name: string }>>(sim, '/users')).find(
    (entry) => entry.id.replace(/-/g, '').toLowerCase() === user.UserId,
  );
  if (viewerUser) {
    await control(sim, `/users/${viewerUser.id}`, { password: 'viewer', isAdministrator: false }, 'PATCH');
    const viewer = await call<{ token: string }>(base, '', '/auth/mediaServerLogin', { username: viewerUser.name, password: 'viewer' });
    const viewerContext = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: base });
    await viewerContext.addInitScript({ content: `localStorage.setItem('token', ${JSON.stringify(viewer.token)});` });
    // With a live session of their own on top (a viewer's socket carries only theirs).
    const [movie] = await control<string[]>(sim, '/items?type=Movie&limit=1');
    await control(sim, '/plays', { userId: viewerUser.id, itemId: movie, client: 'jellyfin-web', deviceId: 'screenshots-viewer' });
    await shoot(await viewerContext.newPage(), 'viewer-home', '/', (p) =>
      p.getByTestId('session-card').first().waitFor({ timeout: 30_000 }),
    );
  }

  const anonymous = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: base });
  await shoot(await anonymous.newPage(), 'login', '/');

  const fresh = await startReelstat();
  stack.push(fresh);
  const setup = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: fresh.url });
  await shoot(await setup.newPage(), 'setup', '/');
  await browser.close();
} finally {
  for (const started of stack.reverse()) await started.stop();
}
log(`done: ${OUT}`);
