/**
 * The process forkBenchServer starts (bench-api-server.ts): a Reelstat api process on the seeded database that
 * also answers the benchmark's commands over IPC (record a play, heap, bytes, delete the recorded plays).
 * Its only argument is the BenchServerOptions as JSON; SIGTERM stops it (and its embedded PostgreSQL).
 */
import { startBenchServer, type BenchServerOptions, type ChildMessage, type CommandMessage } from './bench-api-server.js';

const send = (message: ChildMessage) => process.send?.(message);

async function main() {
  const options = JSON.parse(process.argv[2] ?? '{}') as BenchServerOptions;
  const server = await startBenchServer(options);
  let stopping: Promise<void> | undefined;
  // Stopped (SIGTERM) or left alone (the benchmark exited), it stops its PostgreSQL and ends.
  const stop = () => (stopping ??= server.stop().finally(() => process.exit()));
  process.once('SIGTERM', () => void stop());
  process.on('disconnect', () => void stop());
  process.on('message', (message: CommandMessage) => {
    void server[message.command]().then(
      (result) => send({ id: message.id, result }),
      (error: unknown) => send({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
  send({ ready: true, url: server.url });
}

main().catch((error: unknown) => {
  send({ failed: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exitCode = 1;
  if (process.connected) process.disconnect();
});
