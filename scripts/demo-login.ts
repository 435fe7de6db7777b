import { createHash } from 'node:crypto';

/** The demo's and the screenshots' administrator (local throw-away instances only). */
export const demoLogin = { username: 'admin', password: 'reelstat' } as const;

/**
 * Logs in as the browser does (SHA3-512 digest of the password) and returns the token. The GitOps bootstrap
 * creates the administrator just after the server starts answering: a few early refusals are expected.
 */
export async function signIn(baseUrl: string, timeoutMs = 60_000): Promise<string> {
  const password = createHash('sha3-512').update(demoLogin.password).digest('hex');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = (await (await fetch(new URL('/auth/isConfigured', baseUrl))).json()) as { state: number };
    if (state.state === 2) {
      const response = await fetch(new URL('/auth/login', baseUrl), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: demoLogin.username, password }),
      });
      if (response.ok) return ((await response.json()) as { token: string }).token;
      if (Date.now() > deadline) throw new Error(`login failed: ${response.status} ${await response.text()}`);
    } else if (Date.now() > deadline) throw new Error(`Reelstat is not set up (state ${state.state})`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
