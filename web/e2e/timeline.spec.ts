import { expect, test } from '@playwright/test';
import { api, adminToken, historyTotal, openLoggedIn, recordPlays, until } from './helpers.js';

test('timeline: needs a user and a library; toggle-all; shows what the user watched', async ({ page }) => {
  test.setTimeout(120_000);
  if ((await historyTotal().catch(() => 0)) === 0) {
    await recordPlays(2);
    await until('plays in the history', async () => (await historyTotal()) > 0);
  }
  const token = await adminToken();
  const history = await api<{ results: Array<{ UserId: string; UserName: string; NowPlayingItemName: string }> }>(
    '/api/getHistory?size=10&page=1',
    { token },
  );
  const play = history.results[0]!;

  await openLoggedIn(page, '/timeline');
  await expect(page.getByTestId('timeline-hint')).toBeVisible();
  await page.getByLabel('User').selectOption(play.UserId);
  await expect(page.getByTestId('timeline-hint')).toBeVisible();

  const boxes = page.getByRole('group', { name: 'Libraries' }).getByRole('checkbox');
  await page.getByRole('button', { name: 'Toggle select all' }).click();
  const count = await boxes.count();
  expect(count).toBeGreaterThan(1);
  for (let index = 0; index < count; index += 1) await expect(boxes.nth(index)).toBeChecked();
  await boxes.first().uncheck();
  await page.getByRole('button', { name: 'Toggle select all' }).click();
  for (let index = 0; index < count; index += 1) await expect(boxes.nth(index)).not.toBeChecked();
  await expect(page.getByTestId('timeline-hint')).toBeVisible();

  await page.getByRole('button', { name: 'Toggle select all' }).click();
  await expect(page.getByTestId('timeline').getByText(play.NowPlayingItemName).first()).toBeVisible();
});
