/** setTimeout's longest delay (about 24.8 days); a token may live longer (TOKEN_TTL_HOURS up to a year). */
const LONGEST_DELAY_MS = 2 ** 31 - 1;

/**
 * Calls `onExpiry` once at a wall-clock time that can be moved (a renewed token) or cleared (the socket closed).
 * Delays past setTimeout's limit are waited for in steps.
 */
export class ExpiryTimer {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly onExpiry: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  at(timeMs: number): void {
    this.clear();
    const delay = timeMs - this.now();
    if (delay <= 0) {
      this.onExpiry();
      return;
    }
    this.timer = setTimeout(() => this.at(timeMs), Math.min(delay, LONGEST_DELAY_MS));
    // A pending cut-off must not keep the process alive at shutdown.
    this.timer.unref();
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
