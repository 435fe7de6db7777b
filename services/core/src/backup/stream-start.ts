import { once } from 'node:events';
import type { Readable } from 'node:stream';

/**
 * The first non-blank character of a stream (to tell a Reelstat backup, a JSON object, from a Jellystat one,
 * a JSON array). What was read is put back, so the caller still reads everything.
 */
export async function startsWith(stream: Readable): Promise<{ first: string | undefined; stream: Readable }> {
  const seen: Buffer[] = [];
  let first: string | undefined;
  let size = 0;
  while (first === undefined && size < 1024 * 1024) {
    const chunk = stream.read() as Buffer | string | null;
    if (chunk === null) {
      if (stream.readableEnded || stream.destroyed) break;
      await Promise.race([once(stream, 'readable'), once(stream, 'end')]);
      continue;
    }
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    seen.push(buffer);
    size += buffer.length;
    const text = buffer
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart();
    if (text) first = text[0];
  }
  for (const buffer of seen.reverse()) stream.unshift(buffer);
  return { first, stream };
}
