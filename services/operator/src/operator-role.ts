import type { LeaderElector, Role, Runtime } from '@reelstat/core';

/**
 * The operator reconciles MediaStatsServer custom resources into media-server links. Like the scheduler it
 * is leader-elected, so several replicas never reconcile the same resource at once.
 */
export class OperatorRole implements Role {
  readonly name = 'operator';
  elector: LeaderElector | undefined;
  private started = false;

  async start(runtime: Runtime): Promise<() => Promise<void>> {
    const elector = runtime.createLeaderElector('operator');
    this.elector = elector;
    await elector.start();
    this.started = true;
    return async () => {
      this.started = false;
      await elector.stop();
    };
  }

  readiness(): Record<string, boolean> {
    return { leaderStateKnown: this.started };
  }
}
