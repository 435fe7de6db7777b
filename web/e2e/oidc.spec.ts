import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { expect, test } from '@playwright/test';
import Provider from 'oidc-provider';
import { simKey, simUrl } from './helpers.js';
import { freePort, startReelstat, type Started } from './stack.js';

/**
 * The "Sign in with …" button in a browser, against the real, certified `oidc-provider` started here with a
 * sign-in page of its own (a form, as Authelia or Pocket ID show one), and a Reelstat of its own started with
 * `OIDC_*` (the suite's shared instance has no OpenID provider). Members of `reelstat-admins` become admin.
 */
const ACCOUNTS: Record<string, { preferred_username: string; email: string; groups: string[] }> = {
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

/** The provider on `port`, with one client whose redirect URI is Reelstat's callback. */
async function startProvider(port: number, redirectUri: string): Promise<Server> {
  const oidc = new Provider(`http://127.0.0.1:${port}`, {
    clients: [
      {
        client_id: 'reelstat',
        client_secret: CLIENT_SECRET,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], profile: ['preferred_username', 'name'], email: ['email'], groups: ['groups'] },
    scopes: ['openid', 'profile', 'email', 'groups'],
    findAccount: (_context, id) => {
      const account = ACCOUNTS[id];
      return account ? { accountId: id, claims: () => ({ sub: id, name: account.preferred_username, ...account }) } : undefined;
    },
    interactions: { url: (_context, interaction) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['oidc-e2e-cookie-key'] },
  });
  // The sign-in page: a username, "Sign in" or "Refuse". Consent is given at once (a first-party client).
  const interaction = async (req: IncomingMessage, res: ServerResponse) => {
    const details = await oidc.interactionDetails(req, res);
    if (details.prompt.name === 'login' && req.method === 'GET') {
      page(
        res,
        `<h1>Provider sign-in</h1><form method="post"><label>Account <input name="account"></label>
         <button name="choice" value="sign-in">Sign in</button><button name="choice" value="refuse">Refuse</button></form>`,
      );
      return;
    }
    if (details.prompt.name === 'login') {
      const form = await readForm(req);
      const result =
        form.get('choice') === 'refuse'
          ? { error: 'access_denied', error_description: 'The account is not allowed to use this application' }
          : { login: { accountId: form.get('account') ?? '' } };
      await oidc.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new oidc.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope));
    await oidc.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
  };
  const callback = oidc.callback();
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/interaction/'))
      interaction(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    else void callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
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
      OIDC_CLIENT_ID: 'reelstat',
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
