import { expect, test } from '@playwright/test';
import { adminToken, api, openLoggedIn, until } from './helpers.js';

interface BackupFile {
  name: string;
  size: number;
}

test('backup tab: exclusions in red, upload with progress, restore with confirmation, delete', async ({ page }) => {
  const token = await adminToken();
  await openLoggedIn(page, '/settings');
  await page.getByRole('tab', { name: 'Backup' }).click();
  await expect(page.getByText('No backups')).toBeVisible();

  // An excluded table turns red; clicking again includes it.
  const users = page.getByTestId('backup-tables').getByRole('button', { name: 'Users' });
  await expect(users).toHaveAttribute('aria-pressed', 'false');
  await users.click();
  await expect(users).toHaveAttribute('aria-pressed', 'true');
  await expect(users).toHaveClass(/btn-danger/);
  await users.click();
  await expect(users).toHaveAttribute('aria-pressed', 'false');

  // Only .json can be uploaded; a Jellystat backup uploads with a progress bar.
  const chooser = page.getByLabel('Upload a backup (.json)');
  await chooser.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
  await expect(page.getByText('Only .json files can be uploaded')).toBeVisible();
  // Slow the upload down so that the progress bar can be seen.
  await page.route('**/backup/upload', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await route.continue();
  });
  const jellystat = JSON.stringify([{ jf_users: [{ Id: 'e2e-user', Name: 'E2E user', IsAdministrator: false }] }, { jf_libraries: [] }]);
  await chooser.setInputFiles({ name: 'backup_2025-01-01 10-00-00.json', mimeType: 'application/json', buffer: Buffer.from(jellystat) });
  await expect(page.getByRole('progressbar', { name: 'Uploading' })).toBeVisible();
  await expect(page.getByText('Upload complete!')).toBeVisible();
  const table = page.getByTestId('backup-files');
  await expect(table.getByRole('row').filter({ hasText: 'backup_2025-01-01 10-00-00.json' })).toHaveCount(1);

  // A Reelstat backup made by the task shows up; restoring it asks first, then shows the result.
  await api('/backup/beginBackup', { token });
  const made = await until('the backup file', async () =>
    (await api<BackupFile[]>('/backup/files', { token })).find((f) => f.name.startsWith('reelstat-backup-')),
  );
  await page.reload();
  await page.getByRole('button', { name: `Actions for ${made.name}` }).click();
  await page.getByRole('menuitem', { name: 'Restore' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm restore' });
  await expect(dialog).toContainText(`Restore ${made.name}?`);
  await dialog.getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByText(/Restore complete: \d+ rows in \d+ tables/)).toBeVisible({ timeout: 60_000 });

  // The uploaded Jellystat file imports; then it is deleted from its menu.
  await page.getByRole('button', { name: 'Actions for backup_2025-01-01 10-00-00.json' }).click();
  await page.getByRole('menuitem', { name: 'Restore' }).click();
  await page.getByRole('dialog', { name: 'Confirm restore' }).getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByText(/Jellystat import complete: 0 plays, 0 items, 1 users imported/)).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Actions for backup_2025-01-01 10-00-00.json' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await expect(page.getByText('Backup backup_2025-01-01 10-00-00.json deleted')).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: 'backup_2025-01-01 10-00-00.json' })).toHaveCount(0);
  await api(`/backup/files/${encodeURIComponent(made.name)}`, { method: 'DELETE', token });
});
