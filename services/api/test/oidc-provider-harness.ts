import { startTestProvider, TEST_CLIENT_ID, type TestAccount } from '../../../scripts/test/oidc-test-provider.js';

export type { TestAccount };

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
 * The real, certified `oidc-provider` (scripts/test/oidc-test-provider.ts), started on `port` with one
 * confidential client whose redirect URI is `redirectUri`. Its sign-in page is replaced by an interaction that
 * signs in the account the test names.
 */
export async function startOidcProvider(
  port: number,
  redirectUri: string,
  accounts: Record<string, TestAccount>,
): Promise<OidcProviderHarness> {
  const clientSecret = 'a-client-secret-of-forty-characters-long!';
  // The account the next sign-in is for (one browser at a time in these tests).
  let signingIn = '';
  const { issuer, server } = await startTestProvider({
    port,
    redirectUri,
    clientSecret,
    accounts,
    cookieKey: 'oidc-provider-harness-cookie-key',
    signIn: () => Promise.resolve({ login: { accountId: signingIn } }),
  });

  return {
    issuer,
    clientId: TEST_CLIENT_ID,
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
