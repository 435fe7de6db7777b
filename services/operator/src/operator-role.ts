import type { LeaderElector, Role, Runtime } from '@reelstat/core';
import { onMediaServerLinked } from '@reelstat/core';
import type { ControllerOptions, MediaStatsServerController } from './controller.js';

/**
 * The operator reconciles MediaStatsServer custom resources into media-server links. Like the scheduler it
 * is leader-elected: the controller (informers, queue, reconciles) runs only while this process leads and
 * stops the moment leadership is lost, so two replicas never reconcile at once.
 */
export class OperatorRole implements Role {
  readonly name = 'operator';
  elector: LeaderElector | undefined;
  private started = false;
  /** The running controller while this process leads. */
  controller: MediaStatsServerController | undefined;

  constructor(private readonly overrides: Pick<ControllerOptions, 'probe' | 'backoff'> = {}) {}

  async start(runtime: Runtime): Promise<() => Promise<void>> {
    const elector = await runtime.createLeaderElector('operator');
    this.elector = elector;
    const logger = runtime.logger.child({ role: this.name });
    let transition: Promise<void> = Promise.resolve();
    const stopController = async () => {
      const controller = this.controller;
      this.controller = undefined;
      await controller?.stop().catch((error: unknown) => logger.error({ err: error }, 'operator: error stopping the controller'));
    };
    elector.onChange((leading) => {
      logger.info({ leading }, leading ? 'operator is now the leader' : 'operator is now a follower');
      transition = transition.then(async () => {
        await stopController();
        if (!leading || !elector.isLeader) return;
        let access;
        try {
          access = await runtime.kubernetes();
        } catch (error) {
          // A single-node install runs every role: without a cluster the operator has nothing to do.
          logger.info({ reason: (error as Error).message }, 'operator: no Kubernetes API configured; idle');
          return;
        }
        const { kubeConfig, namespace } = access;
        // Imported only here: the controller loads the Kubernetes client, which a process outside Kubernetes never needs.
        const { MediaStatsServerController } = await import('./controller.js');
        const controller = new MediaStatsServerController({
          kubeConfig,
          namespace,
          links: runtime.services.mediaServers,
          logger,
          identity: runtime.config.kubernetes.podName ?? runtime.config.instanceId,
          isLeading: () => elector.isLeader,
          onLinked: () => onMediaServerLinked(runtime),
          ...this.overrides,
        });
        this.controller = controller;
        await controller.start().catch((error: unknown) => logger.error({ err: error }, 'operator: could not start watching'));
      });
    });
    await elector.start();
    await transition;
    this.started = true;
    return async () => {
      this.started = false;
      await elector.stop();
      await transition;
      await stopController();
    };
  }

  readiness(): Record<string, boolean> {
    return { leaderStateKnown: this.started };
  }
}
