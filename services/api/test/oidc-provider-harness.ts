import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Provider from 'oidc-provider';

/** A person the provider knows: their claims, as an identity provider (Authelia, Keycloak…) would send them. */
export interface TestAccount {
  preferred_username: string;
  email: string;
  groups: string[];
}

export interface OidcProviderHarness {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /**
   * Plays the browser at the provider: follows the authorization URL through the sign-in and consent steps as
   * `account`, and returns the URL the provider sends the browser back to (the redirect URI with code and state).
   */
  signIn(authorizationUrl: string, account: string): Promise<URL>;
  stop(): Promise<void>;
}

/**
 * The real, certified `oidc-provider` package, started on `port` with one confidential client whose redirect URI
 * is `redirectUri`. Its sign-in and consent pages are replaced by an interaction that signs in the account the
 * test names (the provider's own checks — PKCE, state, nonce, code, tokens, keys — are all its own).
 */
export async function startOidcProvider(
  port: number,
  redirectUri: string,
  accounts: Record<string, TestAccount>,
): Promise<OidcProviderHarness> {
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'reelstat';
  const clientSecret = 'a-client-secret-of-forty-characters-long!';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], profile: ['preferred_username', 'name'], email: ['email'], groups: ['groups'] },
    scopes: ['openid', 'profile', 'email', 'groups'],
    findAccount: (_context, id) => {
      const account = accounts[id];
      return account ? { accountId: id, claims: () => ({ sub: id, name: account.preferred_username, ...account }) } : undefined;
    },
    interactions: { url: (_context, interaction) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['oidc-provider-harness-cookie-key'] },
  });
  provider.on('server_error', (_context, error) => console.error('oidc-provider', error));
  // The account the next sign-in is for (one browser at a time in these tests).
  let signingIn = '';
  const providerCallback = provider.callback();
  const interaction = async (req: IncomingMessage, res: ServerResponse) => {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      await provider.interactionFinished(req, res, { login: { accountId: signingIn } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  };
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interaction(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    } else {
      void providerCallback(req, res);
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

  return {
    issuer,
    clientId,
    clientSecret,
    async signIn(authorizationUrl, account) {
      signingIn = account;
      const jar = new Map<string, string>();
      let next = new URL(authorizationUrl);
      for (let hop = 0; hop < 20; hop++) {
        if (!next.href.startsWith(issuer)) return next;
        const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
        const res = await fetch(next, { redirect: 'manual', headers: cookie ? { cookie } : {} });
        for (const set of res.headers.getSetCookie()) {
          const [pair] = set.split(';');
          const [name, ...value] = pair!.split('=');
          jar.set(name!.trim(), value.join('='));
        }
        const location = res.headers.get('location');
        await res.body?.cancel();
        if (!location) throw new Error(`the provider answered ${res.status} at ${next.pathname} without a redirect`);
        next = new URL(location, next);
      }
      throw new Error('too many redirects at the provider');
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
