import { VERSION } from '../version.js';

export interface UpdateInfo {
  current_version: string;
  latest_version: string;
  update_available: boolean;
  message: string;
}

const SUCCESS_CACHE_MS = 60 * 60_000;
const FAILURE_CACHE_MS = 5 * 60_000;
const TIMEOUT_MS = 4000;

/**
 * Asks the release feed (UPDATE_CHECK_URL, GitHub's "latest release" shape: { tag_name }) for the newest
 * version. Never hangs (4 s timeout) and never fails the page: without an answer it says it could not check.
 * Answers are cached so the dashboard's 5-minute polling costs one request an hour.
 */
export class UpdateChecker {
  private cached: { info: UpdateInfo; until: number } | undefined;
  private inFlight: Promise<UpdateInfo> | undefined;

  constructor(
    private readonly url: string,
    private readonly currentVersion = VERSION,
  ) {}

  async check(): Promise<UpdateInfo> {
    if (this.cached && this.cached.until > Date.now()) return this.cached.info;
    this.inFlight ??= this.fetchLatest().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async fetchLatest(): Promise<UpdateInfo> {
    const unknown = (message: string): UpdateInfo => ({
      current_version: this.currentVersion,
      latest_version: this.currentVersion,
      update_available: false,
      message,
    });
    if (!this.url) return unknown('Update checks are turned off');
    try {
      const res = await fetch(this.url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const body = (await res.json()) as { tag_name?: unknown; version?: unknown };
      const tag = typeof body.tag_name === 'string' ? body.tag_name : typeof body.version === 'string' ? body.version : undefined;
      const latest = tag?.replace(/^v/, '');
      if (!latest || !/^\d+\.\d+\.\d+/.test(latest)) throw new Error('no version in the answer');
      const available = compareVersions(latest, this.currentVersion) > 0;
      const info: UpdateInfo = {
        current_version: this.currentVersion,
        latest_version: latest,
        update_available: available,
        message: available ? `Reelstat ${latest} is available` : 'You are running the latest version',
      };
      this.cached = { info, until: Date.now() + SUCCESS_CACHE_MS };
      return info;
    } catch (error) {
      const info = unknown(
        `Could not check for updates (${(error as Error).name === 'TimeoutError' ? 'no answer in time' : (error as Error).message})`,
      );
      this.cached = { info, until: Date.now() + FAILURE_CACHE_MS };
      return info;
    }
  }
}

/** Compares dotted numeric versions; a pre-release suffix sorts before the release. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core = '', pre] = v.split('-', 2);
    return { parts: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < Math.max(x.parts.length, y.parts.length); i++) {
    const diff = (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}
