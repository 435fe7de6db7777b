import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Request } from 'express';
import busboy from 'busboy';
import { AppError } from '@reelstat/core';

export interface ReceivedUpload {
  fileName: string;
  tempFile: string;
}

/**
 * Streams the multipart field `file` to a temporary file, never into memory. A file bigger than `maxBytes`
 * is discarded as it arrives (the rest of the request is drained, not stored) and answered with a 413.
 */
export async function receiveUpload(req: Request, maxBytes: number): Promise<ReceivedUpload> {
  if (!req.is('multipart/form-data')) throw AppError.badRequest('Send the backup as multipart/form-data with the field "file"');
  const tempFile = path.join(tmpdir(), `reelstat-upload-${randomUUID()}`);
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: { files: 1, fileSize: maxBytes, fields: 10 } });
  } catch {
    throw AppError.badRequest('Malformed multipart request');
  }
  let fileName: string | undefined;
  let tooLarge = false;
  let writing: Promise<void> | undefined;
  const done = new Promise<void>((resolve, reject) => {
    parser.on('file', (field, file, info) => {
      if (field !== 'file' || fileName !== undefined) {
        file.resume();
        return;
      }
      fileName = info.filename;
      file.on('limit', () => {
        tooLarge = true;
      });
      writing = pipeline(file, createWriteStream(tempFile, { mode: 0o600 }));
      writing.catch(() => undefined);
    });
    parser.on('error', () => reject(AppError.badRequest('Malformed multipart request')));
    parser.on('close', resolve);
    req.on('aborted', () => reject(AppError.badRequest('The upload was interrupted')));
  });
  try {
    req.pipe(parser);
    await done;
    await writing;
    if (fileName === undefined) throw AppError.badRequest('No file in the upload: send it in the field "file"');
    if (tooLarge) {
      throw new AppError(
        413,
        'payload_too_large',
        `The file is larger than the upload limit (${Math.round(maxBytes / 1024 / 1024)} MB, BACKUP_UPLOAD_MAX_MB)`,
      );
    }
    if (!/\.json(\.gz)?$/i.test(fileName)) throw AppError.badRequest('Only .json backup files can be uploaded');
    return { fileName: path.basename(fileName), tempFile };
  } catch (error) {
    await rm(tempFile, { force: true });
    throw error;
  }
}
