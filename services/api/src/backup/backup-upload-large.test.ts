import http from 'node:http';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, createAdmin, type ApiHarness } from '@reelstat/server/test-support/api-harness.js';

const MiB = 1024 * 1024;
/** Just over the default upload limit (BACKUP_UPLOAD_MAX_MB = 2048). */
const UPLOAD_BYTES = 2048 * MiB + MiB;

/**
 * Sends a multipart upload of `bytes` bytes made on the fly from one reused 1 MiB chunk (the test never holds
 * the body either), waiting for the socket to drain between chunks.
 */
function uploadGenerated(url: string, token: string, name: string, bytes: number): Promise<{ status: number; body: string }> {
  const boundary = 'reelstat-large-upload';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/json\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(MiB, ' ');
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${url}/backup/upload`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + bytes + tail.length,
        },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (part: string) => (body += part));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    void (async () => {
      request.write(head);
      for (let sent = 0; sent < bytes; sent += chunk.length) {
        const part = bytes - sent >= chunk.length ? chunk : chunk.subarray(0, bytes - sent);
        if (!request.write(part)) await new Promise((drained) => request.once('drain', drained));
      }
      request.end(tail);
    })().catch(reject);
  });
}

/** SPEC's bad input "a 2 GB upload": refused with a 413 at the default limit, streamed through, never buffered. */
describe('a 2 GB backup upload', () => {
  let h: ApiHarness;
  let token: string;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'reelstat-backup-large-'));
    h = await startApiHarness({ BACKUP_DIR: dir });
    token = await createAdmin(h);
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('is refused with a 413 over the default 2048 MB limit, keeps nothing, and is never held in memory', async () => {
    const peakBefore = process.resourceUsage().maxRSS * 1024;
    const answer = await uploadGenerated(h.url, token, 'huge.json', UPLOAD_BYTES);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ message: expect.stringContaining('larger than the upload limit (2048 MB') });
    expect(await readdir(dir)).toEqual([]);
    // The server and this client share the process: buffering the body anywhere would add gigabytes here.
    const peakAfter = process.resourceUsage().maxRSS * 1024;
    expect(peakAfter - peakBefore).toBeLessThan(256 * MiB);
    // The server is still well and answers the next request.
    expect(await h.call('GET', '/backup/files', { token })).toMatchObject({ status: 200, body: [] });
  }, 600_000);
});
