import type { LeaderElector, Role, Runtime } from '@reelstat/core';

/**
 * The scheduler: one process of the group leads (advisory lock or Kubernetes Lease) and alone runs the
 * activity monitor and fires schedules; every scheduler process also works queued jobs.
 * Leadership changes are observable on `elector` so that leader-only loops start and stop with it.
 */
export class SchedulerRole implements Role {
  readonly name = 'scheduler';
  elector: LeaderElector | undefined;
  private started = false;

  async start(runtime: Runtime): Promise<() => Promise<void>> {
    const elector = runtime.createLeaderElector('scheduler');
    this.elector = elector;
    elector.onChange((leading) =>
      runtime.logger.info({ role: this.name, leading }, leading ? 'scheduler is now the leader' : 'scheduler is now a follower'),
    );
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
