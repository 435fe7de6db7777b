import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Assembler from 'stream-json/Assembler.js';
import StreamJson from 'stream-json';
import { AppError } from '../../errors/app-error.js';

interface Token {
  name: string;
  value?: unknown;
}

/**
 * Walks a Jellystat backup — `[{"<table>": [rows…]}, …]` — with a streaming JSON parser, handing rows to
 * `onRow` one at a time (the file is never held in memory). `onRow` may return a promise: the parser waits,
 * so a slow database slows the reading instead of filling memory.
 */
export async function walkJellystatFile(
  stream: Readable,
  onRow: (table: string, row: Record<string, unknown>) => void | Promise<void>,
  onTableEnd: (table: string) => void | Promise<void>,
): Promise<void> {
  let depth = 0;
  let table: string | undefined;
  let row: Assembler | undefined;
  const badShape = (what: string) => AppError.badRequest(`Not a Jellystat backup: ${what}`);
  const consume = (token: Token): Promise<void> | void => {
    if (row) {
      (row as unknown as Record<string, (value: unknown) => void>)[token.name]?.(token.value);
      if (row.done) {
        const value = row.current as Record<string, unknown>;
        row = undefined;
        depth--;
        return onRow(table!, value);
      }
      return;
    }
    switch (token.name) {
      case 'startArray':
        if (depth !== 0 && depth !== 2) throw badShape('unexpected array');
        depth++;
        return;
      case 'endArray':
        depth--;
        if (depth === 2) return onTableEnd(table!);
        return;
      case 'startObject':
        if (depth === 1) {
          depth++;
          return;
        }
        if (depth === 3) {
          depth++;
          row = new Assembler();
          (row as unknown as { startObject(): void }).startObject();
          return;
        }
        throw badShape('each element must be {"<table>": [rows]}');
      case 'endObject':
        depth--;
        table = undefined;
        return;
      case 'keyValue':
        if (depth !== 2) throw badShape('unexpected key');
        table = String(token.value);
        return;
      default:
        if (depth === 3) throw badShape(`rows of ${table} must be objects`);
        throw badShape('unexpected value');
    }
  };
  const sink = new Writable({
    objectMode: true,
    highWaterMark: 1024,
    write(token: Token, _encoding, callback) {
      try {
        const result = consume(token);
        if (result) result.then(() => callback(), callback);
        else callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
  try {
    await pipeline(stream, StreamJson.parser({ packValues: true, streamValues: false }), sink);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw AppError.badRequest(`The file is not valid JSON or is truncated: ${(error as Error).message.slice(0, 200)}`);
  }
  if (depth !== 0) throw AppError.badRequest('The file is truncated');
}
