import { parseArgs } from 'node:util';
import { ConfigError, createLogger, loadConfig } from '@reelstat/core';
import { startProcess, type RunningProcess } from './start-process.js';
import { keepRunningOnUnhandledRejections } from './unhandled-rejections.js';
import { shutdownTracing } from './tracing/tracing-shutdown.js';

/**
 * The Reelstat process: `reelstat [--roles api,scheduler,dispatcher,operator]`.
 * Configuration comes from the environment (docs/configuration.md); --roles overrides ROLES.
 */
export async function runProcess(env: NodeJS.ProcessEnv): Promise<void> {
  const { values } = parseArgs({ options: { roles: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true });
  if (values.help) {
    process.stdout.write(
      'Usage: reelstat [--roles api,scheduler,dispatcher,operator]\nConfiguration: environment variables, see docs/configuration.md\n',
    );
    return;
  }
  let config;
  try {
    config = loadConfig(env, { ROLES: values.roles });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config);
  let started: RunningProcess | undefined = undefined;
  keepRunningOnUnhandledRejections(process, logger, () => started?.runtime.metrics.backgroundErrors.inc({ source: 'unhandled-rejection' }));
  const running = await startProcess(config, logger).catch((error: unknown) => {
    logger.fatal({ err: error }, 'Reelstat failed to start');
    process.exit(1);
  });
  started = running;
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(130);
    }
    logger.info({ signal }, 'stopping');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    running
      .stop()
      .then(
        () => 0,
        (error: unknown) => {
          logger.error({ err: error }, 'error during shutdown');
          return 1;
        },
      )
      // The last spans (the shutdown's own) are exported before exiting; without tracing this returns at once.
      .then(async (code) => {
        await shutdownTracing();
        process.exit(code);
      });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
