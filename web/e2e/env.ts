/* eslint-disable no-restricted-properties -- the e2e harness is not the product: it hands its own ports and keys
   to the test workers and to the processes it starts through the environment. */

/** What global-setup publishes to the test workers. */
export const E2E_KEYS = { url: 'REELSTAT_E2E_URL', simUrl: 'REELSTAT_E2E_SIM_URL', simKey: 'REELSTAT_E2E_SIM_KEY' } as const;

export function readE2E(key: keyof typeof E2E_KEYS): string {
  const value = process.env[E2E_KEYS[key]];
  if (!value) throw new Error(`${E2E_KEYS[key]} is not set: run the tests through playwright.config.ts (global-setup starts the stack)`);
  return value;
}

export function publishE2E(values: Record<keyof typeof E2E_KEYS, string>): void {
  for (const [key, value] of Object.entries(values)) process.env[E2E_KEYS[key as keyof typeof E2E_KEYS]] = value;
}

/** The environment of a started process: this one's, plus overrides; `undefined` removes a variable. */
export function childEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/**
 * Which media server the suite runs against: `REELSTAT_E2E_SIM_FLAVOR=emby` and `REELSTAT_E2E_SIM_BLURHASHES=off`
 * run the same suite against an Emby-flavoured simulator, or a Jellyfin one that sends no blurhashes.
 */
export function simulatorChoice(): { flavor: string; blurhashes: string } {
  return { flavor: process.env.REELSTAT_E2E_SIM_FLAVOR ?? 'jellyfin', blurhashes: process.env.REELSTAT_E2E_SIM_BLURHASHES ?? 'on' };
}

export function baseUrlForConfig(): string | undefined {
  return process.env[E2E_KEYS.url];
}
