import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GeolocationService } from './geolocation-service.js';
import { writeMmdb } from './test-support/mmdb-writer.js';

describe('geolocation from a local GeoLite2 file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'reelstat-mmdb-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const service = (file: string) =>
    new GeolocationService({ accountId: undefined, licenseKey: undefined, serviceUrl: 'http://127.0.0.1:9', databasePath: file });

  const file = path.join(dir, 'city.mmdb');
  writeFileSync(
    file,
    writeMmdb([
      {
        cidr: '81.2.69.0/24',
        record: {
          city: { geoname_id: 2643743, names: { en: 'London', de: 'London' } },
          country: { iso_code: 'GB', names: { en: 'United Kingdom', fr: 'Royaume-Uni' } },
          postal: { code: 'EC1A' },
          location: { latitude: 51.5142, longitude: -0.0931, accuracy_radius: 10 },
        },
      },
      { cidr: '89.160.20.128/25', record: { country: { iso_code: 'SE', names: { en: 'Sweden' } } } },
    ]),
  );

  it('answers from the file, in English, with only the fields the dashboard shows', async () => {
    expect(await service(file).locate('81.2.69.160')).toEqual({
      city: { names: { en: 'London' } },
      country: { names: { en: 'United Kingdom' }, iso_code: 'GB' },
      postal: { code: 'EC1A' },
      location: { latitude: 51.5142, longitude: -0.0931 },
    });
    expect(await service(file).locate('89.160.20.200')).toEqual({ country: { names: { en: 'Sweden' }, iso_code: 'SE' } });
  });

  it('404 for an address the file does not know, 400 for a private one', async () => {
    await expect(service(file).locate('89.160.20.100')).rejects.toMatchObject({ status: 404 });
    await expect(service(file).locate('8.8.8.8')).rejects.toMatchObject({ status: 404 });
    await expect(service(file).locate('192.168.1.10')).rejects.toMatchObject({ status: 400 });
  });

  it('503 with a clear message for a missing or corrupt file, and reads it again once fixed', async () => {
    const broken = path.join(dir, 'broken.mmdb');
    writeFileSync(broken, 'not a database');
    const geolocation = service(broken);
    await expect(geolocation.locate('81.2.69.160')).rejects.toMatchObject({
      status: 503,
      message: expect.stringContaining('The GeoLite2 database could not be read'),
    });
    await expect(service(path.join(dir, 'missing.mmdb')).locate('81.2.69.160')).rejects.toMatchObject({ status: 503 });
    writeFileSync(broken, writeMmdb([{ cidr: '81.2.69.0/24', record: { country: { iso_code: 'GB', names: { en: 'United Kingdom' } } } }]));
    expect(await geolocation.locate('81.2.69.160')).toMatchObject({ country: { iso_code: 'GB' } });
  });
});
