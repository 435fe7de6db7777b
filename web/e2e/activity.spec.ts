import { expect, test } from '@playwright/test';
import { historyTotal, openLoggedIn, recordPlays, until } from './helpers.js';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  if ((await historyTotal().catch(() => 0)) >= 12) return;
  await recordPlays(12);
  await until('12 plays in the history', async () => (await historyTotal()) >= 12, 60_000);
});

test('activity table: server-side paging and page size', async ({ page }) => {
  await openLoggedIn(page, '/activity');
  const table = page.getByTestId('activity-table');
  await expect(table.getByTestId('activity-row')).toHaveCount(10);
  const total = await historyTotal();
  await expect(table.getByTestId('pager-status')).toHaveText(`Page 1 of ${Math.ceil(total / 10)}`);
  const firstPage = await table.getByTestId('activity-row').first().innerText();
  const request = page.waitForRequest((r) => r.url().includes('/api/getHistory') && new URL(r.url()).searchParams.get('page') === '2');
  await table.getByRole('button', { name: 'Next page' }).click();
  await request;
  await expect(table.getByTestId('pager-status')).toHaveText(`Page 2 of ${Math.ceil(total / 10)}`);
  await expect(table.getByTestId('activity-row')).toHaveCount(Math.min(10, total - 10));
  expect(await table.getByTestId('activity-row').first().innerText()).not.toBe(firstPage);

  await page.getByLabel('Rows per page').selectOption('25');
  await expect(table.getByTestId('activity-row')).toHaveCount(Math.min(25, total));
  await expect(table.getByTestId('pager-status')).toHaveText(`Page 1 of ${Math.ceil(total / 25)}`);
});

test('activity table: the stream-details modal compares stream and source', async ({ page }) => {
  await openLoggedIn(page, '/activity');
  const row = page.getByTestId('activity-row').first();
  await row.locator('td:nth-child(6) button').click();
  const dialog = page.getByRole('dialog', { name: 'Stream details' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('columnheader', { name: 'Stream' })).toBeVisible();
  await expect(dialog.getByRole('columnheader', { name: 'Source' })).toBeVisible();
  for (const field of [
    'Bitrate',
    'Container',
    'Codec',
    'Width',
    'Height',
    'Frame rate',
    'Dynamic range',
    'Aspect ratio',
    'Audio codec',
    'Channels',
    'Language',
    'Transcode reasons',
  ])
    await expect(dialog.getByRole('rowheader', { name: field, exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('activity table: select rows, confirm, delete', async ({ page }) => {
  await openLoggedIn(page, '/activity');
  const before = await historyTotal();
  const rows = page.getByTestId('activity-row');
  await expect(rows).toHaveCount(10);
  const firstTitle = await rows.first().locator('td:nth-child(5)').innerText();
  await rows.nth(0).getByRole('checkbox').check();
  await rows.nth(1).getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Delete 2 rows' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete activity' });
  await expect(dialog).toContainText('Delete 2 playback records?');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('2 records deleted')).toBeVisible();
  await until('the server to delete 2 rows', async () => (await historyTotal()) === before - 2);
  await expect(rows.first().locator('td:nth-child(5)')).not.toHaveText(firstTitle);
});
