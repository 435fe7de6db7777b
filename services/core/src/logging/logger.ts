import pino, { type Logger } from 'pino';
import type { AppConfig } from '../config/load-config.js';

export type { Logger } from 'pino';

/**
 * Structured JSON logs for machines; a readable one-line format when a person watches a terminal.
 */
export function createLogger(
  config: Pick<AppConfig, 'logLevel' | 'logFormat' | 'instanceId'>,
  destination?: pino.DestinationStream,
): Logger {
  const pretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY === true);
  const options: pino.LoggerOptions = {
    level: config.logLevel,
    base: { instance: config.instanceId },
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-token"]', 'req.headers.cookie', '*.password', '*.apiKey'],
      censor: '[redacted]',
    },
  };
  if (destination) return pino(options, destination);
  if (pretty) {
    return pino({
      ...options,
      transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,instance' } },
    });
  }
  return pino(options);
}
