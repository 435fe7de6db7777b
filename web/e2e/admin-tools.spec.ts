import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { adminToken, api, openLoggedIn, recordPlays, sim, simItems, simUsers, until, type PlayRecord, type SimUser } from './helpers.js';

test('an admin ends a live session with a message', async ({ page }) => {
  await openLoggedIn(page, '/');
  const [user] = await simUsers();
  const [movie] = await simItems('Movie', 1);
  const play = await sim<PlayRecord & { sessionId: string }>('/plays', {
    userId: user!.id,
    itemId: movie!.id,
    client: 'jellyfin-web',
    deviceId: 'e2e-end-session',
    remote: false,
  });
  try {
    const card = page.getByTestId('session-card').filter({ hasText: movie!.name });
    await expect(card).toBeVisible({ timeout: 30_000 });
    await card.getByRole('button', { name: 'End session' }).click();
    const dialog = page.getByRole('dialog', { name: 'End this session' });
    await expect(dialog.getByLabel('Message to the viewer (optional)')).toHaveValue('The server administrator ended this playback.');
    await dialog.getByLabel('Message to the viewer (optional)').fill('Maintenance: back in ten minutes');
    await dialog.getByRole('button', { name: 'End session' }).click();
    await expect(page.getByText(/Session ended on /)).toBeVisible();
    // The media server got the message, then the stop; the card leaves Home at the monitor's next poll.
    const messages = await sim<Array<{ sessionId: string; text: string }>>('/messages');
    expect(messages).toContainEqual(expect.objectContaining({ sessionId: play.sessionId, text: 'Maintenance: back in ten minutes' }));
    expect((await sim<PlayRecord>(`/plays/${play.playId}`)).active).toBe(false);
    await expect(page.getByTestId('session-card').filter({ hasText: movie!.name })).toHaveCount(0, { timeout: 30_000 });
  } finally {
    await sim(`/plays/${play.playId}/stop`, {}).catch(() => undefined);
  }
});

test('Export CSV downloads the history view in force', async ({ page }) => {
  await recordPlays(2);
  await openLoggedIn(page, '/activity');
  await expect(page.getByTestId('activity-row').first()).toBeVisible({ timeout: 30_000 });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  // Streamed to disk from a single-use ticket's link, not built in the page's memory (a blob: URL).
  expect(file.url()).toMatch(/\/api\/download\?ticket=[\w-]+$/);
  expect(file.suggestedFilename()).toMatch(/^reelstat-history-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await readFile((await file.path())!, 'utf8');
  const lines = text.trim().split('\r\n');
  expect(lines[0]).toMatch(/^Id,Date,UserName,UserId,/);
  // Its rows are the history view's plays, in the view's order (newest first), folded rows unfolded (the
  // view's first 100 rows: the file goes on with the next pages').
  type Row = { Id: number; results: Row[] };
  const view = await api<{ results: Row[] }>('/api/getHistory?size=100', { token: await adminToken() });
  const ids = view.results.flatMap((row) => (row.results.length > 0 ? row.results : [row])).map((row) => row.Id);
  const saved = lines.slice(1).map((line) => Number(line.split(',')[0]));
  expect(saved.length).toBeGreaterThanOrEqual(ids.length);
  expect(saved.slice(0, ids.length)).toEqual(ids);
  // The link was used: following it again is refused.
  expect((await fetch(file.url())).status).toBe(401);
});

test('the year in review page shows the figures and makes the PNG card', async ({ page }) => {
  await recordPlays(1);
  await openLoggedIn(page, '/statistics');
  await page.getByRole('link', { name: 'Year in review' }).click();
  const year = new Date().getFullYear();
  await expect(page.getByRole('heading', { name: `${year} in review` })).toBeVisible();
  const plays = page.getByTestId('year-figure').filter({ has: page.getByText('Plays', { exact: true }) });
  await expect(plays.locator('div').nth(1)).toHaveText(/^[1-9][0-9,]*$/);
  await page.getByRole('button', { name: 'Make the shareable card' }).click();
  const card = page.getByTestId('year-card');
  await expect(card).toBeVisible();
  expect(await card.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([1200, 630]);
});

test('a viewer reads their own year in review and exports their own plays', async ({ page }) => {
  const [viewer, other] = (await simUsers()) as [SimUser, SimUser];
  await sim(`/users/${viewer.id}`, { password: 'viewer-tools-pass', isAdministrator: false }, 'PATCH');
  await recordPlays(2);
  const viewerId = viewer.id.replace(/-/g, '').toLowerCase();
  const token = await adminToken();
  await until('the viewer’s play in the history', async () => {
    const history = await api<{ results: Array<{ UserId: string }> }>('/api/getHistory?size=100', { token });
    return history.results.some((row) => row.UserId === viewerId);
  });
  await page.goto('/');
  await page.getByLabel('Username').fill(viewer.name);
  await page.getByLabel('Password', { exact: true }).fill('viewer-tools-pass');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: viewer.name, level: 1 })).toBeVisible();

  // Their history as CSV: only their plays.
  await page.getByRole('tab', { name: 'Activity' }).click();
  await expect(page.getByTestId('activity-row').first()).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const lines = (await readFile((await (await download).path())!, 'utf8')).trim().split('\r\n').slice(1);
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(line).toContain(`,${viewerId},`);
  expect(lines.join('\n')).not.toContain(other.name);

  // Their year: no choice of another user or of the whole server.
  await page.getByRole('link', { name: 'Year in review' }).click();
  await expect(page.getByRole('heading', { name: `${new Date().getFullYear()} in review: ${viewer.name}` })).toBeVisible();
  await expect(page.getByLabel('For')).toHaveCount(0);
  await expect(page.getByTestId('year-figure').first()).toBeVisible();
});
