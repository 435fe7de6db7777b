import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Provider, { type InteractionResults } from 'oidc-provider';

/**
 * The real, certified `oidc-provider` as the tests start it: the API tests (services/api/test) and the browser
 * tests (web/e2e) share this one set-up. It lives in scripts/ because web/e2e may import nothing of services/
 * but the contract (dependency-cruiser's boundaries).
 */

/** A person the provider knows: their claims, as an identity provider (Authelia, Keycloak…) would send them. */
export interface TestAccount {
  preferred_username: string;
  email: string;
  groups: string[];
}

/**
 * The sign-in step of an interaction, the one part the tests do differently: the API tests sign the named
 * account in at once, the browser tests show a form. Returns the login result, or undefined when it answered
 * the request itself (a page was shown).
 */
export type SignInStep = (req: IncomingMessage, res: ServerResponse) => Promise<InteractionResults | undefined>;

export interface TestProviderOptions {
  port: number;
  redirectUri: string;
  clientSecret: string;
  accounts: Record<string, TestAccount>;
  cookieKey: string;
  signIn: SignInStep;
}

/** The OpenID client id the tests configure Reelstat with. */
export const TEST_CLIENT_ID = 'reelstat';

/**
 * Starts the provider on 127.0.0.1:`port` with one confidential client whose redirect URI is `redirectUri`.
 * Only the sign-in page is the test's (`signIn`); consent is given at once (a first-party client). PKCE, state,
 * nonce, codes, tokens and keys are all the provider's own.
 */
export async function startTestProvider(options: TestProviderOptions): Promise<{ issuer: string; server: Server }> {
  const issuer = `http://127.0.0.1:${options.port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT_ID,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], profile: ['preferred_username', 'name'], email: ['email'], groups: ['groups'] },
    scopes: ['openid', 'profile', 'email', 'groups'],
    findAccount: (_context, id) => {
      const account = options.accounts[id];
      return account ? { accountId: id, claims: () => ({ sub: id, name: account.preferred_username, ...account }) } : undefined;
    },
    interactions: { url: (_context, interaction) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: [options.cookieKey] },
  });
  provider.on('server_error', (_context, error) => console.error('oidc-provider', error));
  const interaction = async (req: IncomingMessage, res: ServerResponse) => {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      const result = await options.signIn(req, res);
      if (result) await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope));
    await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
  };
  const callback = provider.callback();
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interaction(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    } else {
      void callback(req, res);
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  return { issuer, server };
}
