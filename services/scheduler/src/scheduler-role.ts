import type { LeaderElector, Role, Runtime } from '@reelstat/core';
import {
  leaderLoops as defaultLeaderLoops,
  workerRegistrations as defaultWorkers,
  type LeaderLoop,
  type WorkerRegistration,
} from './scheduler-parts.js';

/**
 * The scheduler: every scheduler process works queued jobs; one of them leads (advisory lock or Kubernetes
 * Lease) and alone runs the leader loops (activity monitor, schedules). Loops start when leadership is won and
 * stop when it is lost, so a failover hands them over without two leaders running them at once.
 */
export class SchedulerRole implements Role {
  readonly name = 'scheduler';
  elector: LeaderElector | undefined;
  private started = false;

  constructor(
    private readonly loops: LeaderLoop[] = defaultLeaderLoops,
    private readonly workers: WorkerRegistration[] = defaultWorkers,
  ) {
    for (const list of [loops.map((loop) => loop.name), workers.map((worker) => worker.name)]) {
      const duplicate = list.find((name, index) => list.indexOf(name) !== index);
      if (duplicate) throw new Error(`scheduler: "${duplicate}" is registered twice`);
    }
  }

  async start(runtime: Runtime): Promise<() => Promise<void>> {
    const stopWorkers: Array<() => Promise<void>> = [];
    for (const worker of this.workers) stopWorkers.push(await worker.register(runtime));

    const elector = await runtime.createLeaderElector('scheduler');
    this.elector = elector;
    let running: Array<() => Promise<void>> = [];
    // Leadership changes are applied one at a time, in order.
    let transition: Promise<void> = Promise.resolve();
    const stopLoops = async () => {
      const stops = running;
      running = [];
      for (const stop of stops.reverse())
        await stop().catch((error: unknown) => runtime.logger.error({ err: error }, 'error stopping a leader loop'));
    };
    elector.onChange((leading) => {
      runtime.logger.info({ role: this.name, leading }, leading ? 'scheduler is now the leader' : 'scheduler is now a follower');
      transition = transition.then(async () => {
        if (leading) {
          for (const loop of this.loops) {
            try {
              running.push(await loop.start(runtime));
            } catch (error) {
              runtime.logger.error({ err: error, loop: loop.name }, 'a leader loop failed to start');
            }
          }
        } else {
          await stopLoops();
        }
      });
    });
    await elector.start();
    await transition;
    this.started = true;
    return async () => {
      this.started = false;
      await elector.stop();
      await transition;
      await stopLoops();
      for (const stop of stopWorkers.reverse()) await stop();
    };
  }

  readiness(): Record<string, boolean> {
    return { leaderStateKnown: this.started };
  }
}
