import { readFile } from 'node:fs/promises';
import { Reader, type CityResponse } from 'mmdb-lib';
import type { AppConfig } from '../config/load-config.js';
import { AppError } from '../errors/app-error.js';
import { isPrivateAddress } from './private-address.js';

/** SPEC.md §3 Geolocation result: the GeoLite2 City fields the modal shows. */
export interface Geolocation {
  city?: { names: { en?: string } };
  country?: { names: { en?: string }; iso_code?: string };
  postal?: { code?: string };
  traits?: { autonomous_system_organization?: string };
  location?: { latitude?: number; longitude?: number };
}

interface CityRecord {
  city?: { names?: Record<string, string> };
  country?: { names?: Record<string, string>; iso_code?: string };
  postal?: { code?: string };
  traits?: { autonomous_system_organization?: string; isp?: string };
  location?: { latitude?: number; longitude?: number };
}

const CACHE_MS = 24 * 3_600_000;
const CACHE_ENTRIES = 5000;
const TIMEOUT_MS = 5000;

/**
 * POST /utils/geolocateIp: a local GeoLite2 City .mmdb file when configured (no network), else MaxMind's
 * GeoLite2 web service with the account id and licence key. Answers are cached for a day per address, so a
 * busy sessions page does not spend the web service's daily quota.
 */
export class GeolocationService {
  private readonly cache = new Map<string, { value: Geolocation; expires: number }>();
  private reader: Promise<Reader<CityResponse>> | undefined;

  constructor(private readonly config: AppConfig['geolocation']) {}

  get configured(): boolean {
    return Boolean(this.config.databasePath || (this.config.accountId && this.config.licenseKey));
  }

  async locate(address: string): Promise<Geolocation> {
    if (isPrivateAddress(address)) throw AppError.badRequest(`${address} is a private or reserved address: it has no location`);
    if (!this.configured) {
      throw new AppError(
        503,
        'geolocation_not_configured',
        'Geolocation is not configured: set GEOLITE_ACCOUNT_ID and GEOLITE_LICENSE_KEY, or GEOLITE_DB_PATH',
      );
    }
    const cached = this.cache.get(address);
    if (cached && cached.expires > Date.now()) return cached.value;
    const record = this.config.databasePath ? await this.fromFile(address) : await this.fromWebService(address);
    const value = reduce(record);
    if (this.cache.size >= CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(address, { value, expires: Date.now() + CACHE_MS });
    return value;
  }

  private async fromFile(address: string): Promise<CityRecord> {
    this.reader ??= readFile(this.config.databasePath!).then((buffer) => new Reader<CityResponse>(buffer));
    let reader: Reader<CityResponse>;
    try {
      reader = await this.reader;
    } catch (error) {
      this.reader = undefined;
      throw new AppError(503, 'geolocation_unavailable', `The GeoLite2 database could not be read: ${(error as Error).message}`);
    }
    const record = reader.get(address);
    if (!record) throw AppError.notFound(`No location is known for ${address}`);
    return record as unknown as CityRecord;
  }

  private async fromWebService(address: string): Promise<CityRecord> {
    const credentials = Buffer.from(`${this.config.accountId}:${this.config.licenseKey}`).toString('base64');
    let res: Response;
    try {
      res = await fetch(`${this.config.serviceUrl}/${encodeURIComponent(address)}`, {
        headers: { authorization: `Basic ${credentials}`, accept: 'application/json' },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new AppError(502, 'geolocation_unavailable', `The geolocation service could not be reached: ${(error as Error).message}`);
    }
    if (res.status === 404) throw AppError.notFound(`No location is known for ${address}`);
    if (res.status === 401 || res.status === 403) {
      throw new AppError(502, 'geolocation_rejected', 'The geolocation service rejected the account id or licence key');
    }
    if (!res.ok) throw new AppError(502, 'geolocation_unavailable', `The geolocation service answered ${res.status}`);
    return (await res.json()) as CityRecord;
  }
}

function reduce(record: CityRecord): Geolocation {
  const english = (names: Record<string, string> | undefined) => ({ ...(names?.en === undefined ? {} : { en: names.en }) });
  const organisation = record.traits?.autonomous_system_organization ?? record.traits?.isp;
  return {
    ...(record.city ? { city: { names: english(record.city.names) } } : {}),
    ...(record.country
      ? { country: { names: english(record.country.names), ...(record.country.iso_code ? { iso_code: record.country.iso_code } : {}) } }
      : {}),
    ...(record.postal?.code ? { postal: { code: record.postal.code } } : {}),
    ...(organisation ? { traits: { autonomous_system_organization: organisation } } : {}),
    ...(record.location ? { location: { latitude: record.location.latitude, longitude: record.location.longitude } } : {}),
  };
}
