import { expect, test } from '@playwright/test';
import {
  ensureReady,
  liveSessionCount,
  recordPlays,
  sim,
  simItems,
  simUsers,
  until,
  api,
  adminToken,
  type PlayRecord,
  type SimUser,
} from './helpers.js';

const VIEWER_PASSWORD = 'viewer-e2e-pass';

let viewer: SimUser;
let other: SimUser;

test.beforeAll(async () => {
  await ensureReady();
  [viewer, other] = (await simUsers()) as [SimUser, SimUser];
  // A media-server user who is not an administrator there, with a password of their own.
  await sim(`/users/${viewer.id}`, { password: VIEWER_PASSWORD, isAdministrator: false }, 'PATCH');
  // Plays by the viewer (the first user) and by someone else (the second).
  await recordPlays(2);
  const token = await adminToken();
  const viewerId = viewer.id.replace(/-/g, '').toLowerCase();
  await until('the viewer’s play in the history', async () => {
    const page = await api<{ results: Array<{ UserId: string }> }>('/api/getHistory?size=100', { token });
    return page.results.some((row) => row.UserId === viewerId);
  });
});

test('a viewer signs in with their media-server account and sees only their own pages', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Username').fill(viewer.name);
  await page.getByLabel('Password', { exact: true }).fill(VIEWER_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();

  // Their own page: their name, their statistics; no administrator navigation.
  await expect(page.getByRole('heading', { name: viewer.name, level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'My statistics' })).toBeVisible();
  for (const adminOnly of ['Settings', 'Users', 'Libraries', 'Activity', 'Statistics'])
    await expect(page.getByRole('link', { name: adminOnly, exact: true })).toHaveCount(0);

  // Their history: their plays, nobody else's.
  await page.getByRole('tab', { name: 'Activity' }).click();
  await expect(page.getByTestId('activity-row').first()).toBeVisible();
  await expect(page.getByTestId('activity-table')).toContainText(viewer.name);
  await expect(page.getByTestId('activity-table')).not.toContainText(other.name);
  await expect(page.getByRole('checkbox', { name: 'Select all rows' })).toHaveCount(0);

  // The administrator's pages do not exist for a viewer, and the API refuses them.
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: viewer.name, level: 1 })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Settings', exact: true })).toHaveCount(0);
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const refused = await page.evaluate(
    async (bearer) => (await fetch('/api/getconfig', { headers: { Authorization: `Bearer ${bearer}` } })).status,
    token,
  );
  expect(refused).toBe(403);
});

test("the server-wide cards appear for a viewer only when the administrator shares them, without other users' names", async ({ page }) => {
  const token = await adminToken();
  const share = (shared: boolean) =>
    api('/api/signInSettings', {
      method: 'POST',
      token,
      body: { MEDIA_SERVER_SIGN_IN: { enabled: true, onlyUsers: [] }, VIEWERS_SEE_SERVER_STATS: shared },
    });
  await page.goto('/');
  await page.getByLabel('Username').fill(viewer.name);
  await page.getByLabel('Password', { exact: true }).fill(VIEWER_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: viewer.name, level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Watch statistics/ })).toHaveCount(0);
  await share(true);
  try {
    await page.reload();
    await expect(page.getByRole('heading', { name: /^Watch statistics/ })).toBeVisible();
    await expect(page.getByText('Most viewed movies')).toBeVisible();
    await expect(page.getByText('Most active users')).toHaveCount(0);
  } finally {
    await share(false);
  }
});

test('a wrong media-server password shows the usual message', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Username').fill(viewer.name);
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Invalid username or password (401)' })).toBeVisible();
});

test("a viewer sees their own live session on their home, never another user's", async ({ page }) => {
  const [ownMovie, otherMovie] = await simItems('Movie', 2);
  // The other user starts first: any poll that sees the viewer's play sees the other's too.
  const foreign = await sim<PlayRecord>('/plays', {
    userId: other.id,
    itemId: otherMovie!.id,
    client: 'android-tv',
    deviceId: 'e2e-other',
  });
  const own = await sim<PlayRecord>('/plays', { userId: viewer.id, itemId: ownMovie!.id, client: 'jellyfin-web', deviceId: 'e2e-own' });
  try {
    await page.goto('/');
    await page.getByLabel('Username').fill(viewer.name);
    await page.getByLabel('Password', { exact: true }).fill(VIEWER_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    const card = page.getByTestId('session-card').filter({ hasText: ownMovie!.name });
    await expect(card).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('session-card')).toHaveCount(1);
    await expect(page.getByText(otherMovie!.name)).toHaveCount(0);
    await expect(page.getByText(other.name)).toHaveCount(0);
    // Ending a session is for administrators.
    await expect(card.getByRole('button', { name: 'End session' })).toHaveCount(0);
  } finally {
    for (const play of [own, foreign]) await sim(`/plays/${play.playId}/stop`, {});
  }
  await expect(page.getByTestId('session-card')).toHaveCount(0, { timeout: 30_000 });
});

test('a viewer follows a link from their history to the item page and sees only their own plays of it', async ({ page }) => {
  // A film both the viewer and the other user watch: its page must show the viewer's play only.
  const [, , shared] = await simItems('Movie', 3);
  const token = await adminToken();
  const playsOf = async () =>
    (await api<{ results: Array<{ UserId: string }> }>('/api/getItemHistory', { method: 'POST', token, body: { itemid: shared!.id } }))
      .results.length;
  const before = await playsOf();
  const plays = [];
  for (const user of [other, viewer])
    plays.push(
      await sim<PlayRecord>('/plays', { userId: user.id, itemId: shared!.id, client: 'jellyfin-web', deviceId: `e2e-item-${user.id}` }),
    );
  await until('both plays seen live', async () => (await liveSessionCount()) >= 2, 30_000);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  for (const play of plays) await sim(`/plays/${play.playId}/stop`, {}).catch(() => undefined);
  await until('both plays in the item’s history', async () => (await playsOf()) >= before + 2);

  await page.goto('/');
  await page.getByLabel('Username').fill(viewer.name);
  await page.getByLabel('Password', { exact: true }).fill(VIEWER_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: viewer.name, level: 1 })).toBeVisible();
  await page.getByRole('tab', { name: 'Activity' }).click();
  await page.getByTestId('activity-table').getByRole('link', { name: shared!.name }).first().click();

  // The item's page: its name, and on its activity tab the viewer's plays of it, nobody else's.
  await expect(page).toHaveURL(new RegExp(`/libraries/item/${shared!.id}$`));
  await expect(page.getByRole('heading', { name: shared!.name, level: 1 })).toBeVisible();
  await expect(page.getByTestId('item-not-found')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Activity' }).click();
  await expect(page.getByTestId('activity-row').first()).toBeVisible();
  await expect(page.getByTestId('activity-table')).toContainText(viewer.name);
  await expect(page.getByTestId('activity-table')).not.toContainText(other.name);
});
