import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { expect, test } from '@playwright/test';
import { simKey, simUrl } from './helpers.js';
import { freePort, startReelstat, type Started } from './stack.js';
import { startTestProvider, TEST_CLIENT_ID, type TestAccount } from '../../scripts/test/oidc-test-provider.js';

/**
 * The "Sign in with …" button in a browser, against the real, certified `oidc-provider` started here with a
 * sign-in page of its own (a form, as Authelia or Pocket ID show one), and a Reelstat of its own started with
 * `OIDC_*` (the suite's shared instance has no OpenID provider). Members of `reelstat-admins` become admin.
 */
const ACCOUNTS: Record<string, TestAccount> = {
  'sub-root': { preferred_username: 'root', email: 'root@example.org', groups: ['family', 'reelstat-admins'] },
};
const CLIENT_SECRET = 'an-e2e-client-secret-of-forty-characters!';

let provider: Server;
let reelstat: Started;

function page(res: ServerResponse, html: string) {
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end(`<!doctype html><html><body>${html}</body></html>`);
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return new URLSearchParams(body);
}

/** The provider on `port`, with one client whose redirect URI is Reelstat's callback, and a sign-in form. */
async function startProvider(port: number, redirectUri: string): Promise<Server> {
  // The sign-in page: an account, "Sign in" or "Refuse".
  const signIn = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET') {
      page(
        res,
        `<h1>Provider sign-in</h1><form method="post"><label>Account <input name="account"></label>
         <button name="choice" value="sign-in">Sign in</button><button name="choice" value="refuse">Refuse</button></form>`,
      );
      return undefined;
    }
    const form = await readForm(req);
    return form.get('choice') === 'refuse'
      ? { error: 'access_denied', error_description: 'The account is not allowed to use this application' }
      : { login: { accountId: form.get('account') ?? '' } };
  };
  const { server } = await startTestProvider({
    port,
    redirectUri,
    clientSecret: CLIENT_SECRET,
    accounts: ACCOUNTS,
    cookieKey: 'oidc-e2e-cookie-key',
    signIn,
  });
  return server;
}

test.beforeAll(async () => {
  const [providerPort, reelstatPort] = [await freePort(), await freePort()];
  provider = await startProvider(providerPort, `http://127.0.0.1:${reelstatPort}/auth/oidc/callback`);
  reelstat = await startReelstat(
    {
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: 'oidc-e2e-admin-pass',
      MEDIA_SERVER_URL: simUrl(),
      MEDIA_SERVER_API_KEY: simKey(),
      OIDC_ISSUER: `http://127.0.0.1:${providerPort}`,
      OIDC_CLIENT_ID: TEST_CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_ADMIN_GROUPS: 'reelstat-admins',
      OIDC_LABEL: 'Pocket ID',
    },
    reelstatPort,
  );
});

test.afterAll(async () => {
  await reelstat?.stop();
  await new Promise<void>((resolve) => (provider ? provider.close(() => resolve()) : resolve()));
});

test('"Sign in with Pocket ID" signs in at the provider and lands on the dashboard as an administrator', async ({ page }) => {
  await page.goto(reelstat.url);
  await page.getByRole('link', { name: 'Sign in with Pocket ID' }).click();
  await expect(page.getByRole('heading', { name: 'Provider sign-in' })).toBeVisible();
  await page.getByLabel('Account').fill('sub-root');
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Back on the dashboard, signed in: a member of reelstat-admins gets the administrator's navigation.
  await expect(page).toHaveURL(new RegExp(`^${reelstat.url}/`));
  await expect(page.getByRole('link', { name: 'Settings', exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('link', { name: 'Users', exact: true })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
});

test('a sign-in the provider refuses is explained on the login screen', async ({ page }) => {
  await page.goto(reelstat.url);
  await page.getByRole('link', { name: 'Sign in with Pocket ID' }).click();
  await page.getByLabel('Account').fill('sub-root');
  await page.getByRole('button', { name: 'Refuse' }).click();
  await expect(page.getByText('The provider refused the sign-in: The account is not allowed to use this application')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in with Pocket ID' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Settings', exact: true })).toHaveCount(0);
});
