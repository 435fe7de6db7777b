import type { Role, Runtime } from '@reelstat/core';

/**
 * The dispatcher delivers webhooks (with retries) from the job queue, so slow or failing receivers never hold
 * up the scheduler or the API. Delivery handlers are registered here as the webhook feature lands.
 */
export class DispatcherRole implements Role {
  readonly name = 'dispatcher';
  private running = false;

  async start(runtime: Runtime): Promise<() => Promise<void>> {
    this.running = true;
    runtime.logger.info({ role: this.name, queue: runtime.queue.backend }, 'dispatcher started');
    return async () => {
      this.running = false;
    };
  }

  readiness(): Record<string, boolean> {
    return { running: this.running };
  }
}
