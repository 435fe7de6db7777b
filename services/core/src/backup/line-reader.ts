import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { AppError } from '../errors/app-error.js';

/**
 * Reads a stream line by line without holding more than one chunk and one line. A line longer than
 * maxLineBytes is refused (a Reelstat backup has one row per line; anything else is not one).
 */
export class LineReader {
  private readonly chunks: AsyncIterator<Buffer | string>;
  private buffered: string[] = [];
  private rest = '';
  private ended = false;
  private readonly decoder = new StringDecoder('utf8');
  lineNumber = 0;

  constructor(
    stream: Readable,
    private readonly maxLineBytes = 64 * 1024 * 1024,
  ) {
    this.chunks = stream[Symbol.asyncIterator]();
  }

  /** The next line (without its newline), or undefined at the end. */
  async next(): Promise<string | undefined> {
    while (this.buffered.length === 0) {
      if (this.ended) {
        if (this.rest === '') return undefined;
        const last = this.rest;
        this.rest = '';
        this.lineNumber++;
        return last;
      }
      const { value, done } = await this.chunks.next();
      if (done) {
        this.ended = true;
        continue;
      }
      const text = this.rest + (typeof value === 'string' ? value : this.decoder.write(value));
      const lines = text.split('\n');
      this.rest = lines.pop()!;
      if (this.rest.length > this.maxLineBytes)
        throw AppError.badRequest('Not a Reelstat backup file: a line is longer than any row can be');
      this.buffered = lines.reverse();
    }
    this.lineNumber++;
    return this.buffered.pop();
  }

  async close(): Promise<void> {
    await this.chunks.return?.();
  }
}
