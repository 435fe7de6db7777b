import { finished } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import type pg from 'pg';
import copyStreams from 'pg-copy-streams';

/**
 * COPY … FROM STDIN into one table over several connections at once. Parsing and checking the values is
 * PostgreSQL's side of a restore's load, and one backend does it on one core: with two, a large table loads
 * on two. Each chunk (whole rows) goes to the stream with the least data waiting; a full stream is waited
 * for (backpressure), so memory stays bounded. The rows are in the table once every stream has finished
 * (each COPY is its own statement; a failure leaves the staging table to be dropped).
 */
export class ParallelCopy {
  private failure: unknown;

  private constructor(private readonly streams: Writable[]) {
    for (const stream of streams) stream.on('error', (error: unknown) => (this.failure ??= error));
  }

  static open(clients: readonly pg.Client[], sql: string): ParallelCopy {
    return new ParallelCopy(clients.map((client) => client.query(copyStreams.from(sql))));
  }

  async write(chunk: string): Promise<void> {
    if (this.failure) throw this.failure;
    const target = this.streams.reduce((a, b) => (b.writableLength < a.writableLength ? b : a));
    if (target.write(chunk)) return;
    await new Promise<void>((resolve, reject) => {
      const drained = () => {
        target.off('error', failed);
        resolve();
      };
      const failed = (error: unknown) => {
        target.off('drain', drained);
        reject(error instanceof Error ? error : new Error(String(error)));
      };
      target.once('drain', drained);
      target.once('error', failed);
    });
  }

  /** Ends every stream and waits until PostgreSQL has taken all rows (or throws the first failure). */
  async end(): Promise<void> {
    if (this.failure) throw this.failure;
    for (const stream of this.streams) stream.end();
    const results = await Promise.allSettled(this.streams.map((stream) => finished(stream)));
    const failed = results.find((result) => result.status === 'rejected');
    if (this.failure ?? failed) throw this.failure ?? (failed as PromiseRejectedResult).reason;
  }

  /** After a failure of ours (a bad row): stops every COPY (each connection's statement fails and ends). */
  abort(error: Error): void {
    for (const stream of this.streams) stream.destroy(error);
  }
}
