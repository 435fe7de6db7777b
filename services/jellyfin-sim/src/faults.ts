/** Fault injection for resilience tests. Faults never apply to the control API. */
import { Rng } from './rng.js';

export type DownMode = false | 'refused' | '503';

export interface FaultSettings {
  /** Extra latency added to every media-server response (real milliseconds). */
  latencyMs: number;
  /** Fraction (0–1) of media-server requests answered 500 "Error processing request.". Seeded. */
  errorRate: number;
  /** 'refused': the listening socket is closed (connection refused); '503': every request gets 503 text/html. */
  down: DownMode;
  /** Extra latency for paged list endpoints (/Items, /Users/{id}/Items, /Shows/…/Episodes …). */
  slowPagesMs: number;
}

export const NO_FAULTS: FaultSettings = { latencyMs: 0, errorRate: 0, down: false, slowPagesMs: 0 };

export class Faults {
  settings: FaultSettings = { ...NO_FAULTS };
  private readonly rng: Rng;

  constructor(seed: number) {
    this.rng = new Rng(seed).fork('faults');
  }

  /** Decides whether this request fails (draws from the seeded stream only when an error rate is set). */
  shouldFail(): boolean {
    return this.settings.errorRate > 0 && this.rng.next() < this.settings.errorRate;
  }
}
