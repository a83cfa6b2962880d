import { describe, expect, it } from 'vitest';
import { countryCode, DbIpGeoLocator } from './geo-ip.js';
import { publicAddress } from './public-address.js';

describe('geo-IP lookups from the bundled DB-IP Lite database', () => {
  const geo = new DbIpGeoLocator();

  it('places well-known public addresses by country code', async () => {
    // Anycast resolvers whose registrations have been stable for years.
    expect((await geo.locate('8.8.8.8')).country).toBe('US');
    expect((await geo.locate('::ffff:8.8.8.8')).country).toBe('US');
    expect((await geo.locate('1.1.1.1')).country).toBe('AU');
    const google = await geo.locate('2001:4860:4860::8888');
    expect(typeof google.country).toBe('string');
    expect(google.city === null || typeof google.city === 'string').toBe(true);
  });

  it('answers nothing for addresses no database can place, without opening one', async () => {
    // A database that does not exist: any attempt to open it would fail the lookup.
    const nowhere = new DbIpGeoLocator({ ipv4: '/nonexistent/v4.mmdb', ipv6: '/nonexistent/v6.mmdb' });
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.5',
      '192.168.1.10',
      '169.254.1.1',
      '100.64.0.1',
      '0.0.0.0',
      '198.51.100.7',
      '::1',
      '::',
      'fe80::1',
      'fe80::1%eth0',
      'fd12:3456::1',
      '::ffff:192.168.0.1',
      '::ffff:7f00:1',
      '0:0:0:0:0:ffff:10.0.0.1',
      'not-an-ip',
      '',
      '999.1.1.1',
    ]) {
      expect(await nowhere.locate(ip), ip).toEqual({ country: null, city: null });
    }
    await expect(nowhere.locate('8.8.8.8')).rejects.toThrow();
  });

  it('reads IPv4-mapped IPv6 addresses as the IPv4 address they carry', () => {
    expect(publicAddress('::ffff:8.8.8.8')).toEqual({ address: '8.8.8.8', family: 4 });
    expect(publicAddress('::FFFF:0808:0808')).toEqual({ address: '8.8.8.8', family: 4 });
    expect(publicAddress('2001:4860:4860::8888')).toEqual({ address: '2001:4860:4860::8888', family: 6 });
  });

  it('keeps real ISO country codes and refuses codes that name no country', () => {
    expect(countryCode('GB')).toBe('GB');
    expect(countryCode('de')).toBe('DE');
    expect(countryCode('ZZ')).toBeNull();
    expect(countryCode('USA')).toBeNull();
    expect(countryCode(undefined)).toBeNull();
  });
});
