import { describe, expect, it } from 'vitest';
import { loadSfuConfig, SfuConfigError } from './config.js';

const NATS = { NATS_URL: 'nats://nats:4222' };

function problemOf(env: NodeJS.ProcessEnv): string {
  try {
    loadSfuConfig(env);
  } catch (error) {
    if (error instanceof SfuConfigError) return error.message;
    throw error;
  }
  throw new Error('expected an SfuConfigError');
}

describe('sfu configuration', () => {
  it('runs on its defaults with only NATS_URL set', () => {
    expect(loadSfuConfig(NATS)).toEqual({
      healthPort: 3100,
      host: '0.0.0.0',
      logLevel: 'info',
      natsUrl: 'nats://nats:4222',
      nats: { servers: 'nats://nats:4222' },
      rtcMinPort: 40_000,
      rtcMaxPort: 49_999,
      workers: undefined,
      listenIp: '0.0.0.0',
      announcedIp: undefined,
      nodeId: undefined,
    });
  });

  it('reads the variables it is given', () => {
    const config = loadSfuConfig({
      ...NATS,
      SFU_HEALTH_PORT: '0',
      SFU_HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SFU_RTC_MIN_PORT: '40000',
      SFU_RTC_MAX_PORT: '40999',
      SFU_WORKERS: '2',
      SFU_LISTEN_IP: '::',
      SFU_ANNOUNCED_IP: '203.0.113.7',
      SFU_NODE_ID: 'sfu-1',
    });
    expect(config).toMatchObject({
      healthPort: 0,
      host: '127.0.0.1',
      logLevel: 'warn',
      rtcMinPort: 40_000,
      rtcMaxPort: 40_999,
      workers: 2,
      listenIp: '::',
      announcedIp: '203.0.113.7',
      nodeId: 'sfu-1',
    });
  });

  it('names the bad variable in one line, with what it got', () => {
    const problem = problemOf({ ...NATS, SFU_WORKERS: 'many' });
    expect(problem).toBe('Configuration error: SFU_WORKERS must be a whole number from 1 to 256 (got "many")');
    expect(problemOf({ ...NATS, SFU_ANNOUNCED_IP: 'sfu.example.com' })).toMatch(
      /^Configuration error: SFU_ANNOUNCED_IP must be an IPv4 or IPv6 address/,
    );
    expect(problemOf({ ...NATS, SFU_NODE_ID: 'a.b' })).toMatch(/SFU_NODE_ID may hold only letters, digits, _ and -/);
    expect(problemOf({ ...NATS, SFU_RTC_MIN_PORT: '41000', SFU_RTC_MAX_PORT: '40000' })).toMatch(
      /SFU_RTC_MIN_PORT must not exceed SFU_RTC_MAX_PORT/,
    );
  });

  it('names every bad variable at once, still on one line', () => {
    const problem = problemOf({ ...NATS, SFU_HEALTH_PORT: '70000', LOG_LEVEL: 'loud' });
    expect(problem).not.toContain('\n');
    expect(problem).toMatch(/SFU_HEALTH_PORT must be a whole number from 0 to 65535 .*; LOG_LEVEL must be one of/);
  });

  it('hands the NATS client the user and password NATS_URL names (the client ignores them in a server URL)', () => {
    expect(loadSfuConfig({ NATS_URL: 'nats://sfu:s3cret%21@nats:4222' }).nats).toEqual({
      servers: 'nats://nats:4222',
      user: 'sfu',
      pass: 's3cret!',
    });
  });

  it('will not start in production on a NATS_URL without a user and password, and does not echo it', () => {
    const production = { NODE_ENV: 'production' };
    expect(problemOf({ ...production, NATS_URL: 'nats://nats:4222' })).toBe(
      'Configuration error: NATS_URL must name the NATS user and password when NODE_ENV=production ' +
        '(nats://sfu:PASSWORD@nats:4222)',
    );
    const onlyUser = problemOf({ ...production, NATS_URL: 'nats://sfu@nats:4222' });
    expect(onlyUser).toMatch(/^Configuration error: NATS_URL must name the NATS user and password/);
    expect(loadSfuConfig({ ...production, NATS_URL: 'nats://sfu:s3cret@nats:4222' }).nats.user).toBe('sfu');
    // Development and tests may use a NATS without users.
    expect(loadSfuConfig({ NATS_URL: 'nats://127.0.0.1:4222' }).nats).toEqual({ servers: 'nats://127.0.0.1:4222' });
  });

  it('caps the rooms at SFU_MAX_ROOMS, never past what the port range holds (4 ports a call)', () => {
    expect(loadSfuConfig(NATS).maxRooms).toBeUndefined();
    expect(loadSfuConfig({ ...NATS, SFU_MAX_ROOMS: '300' }).maxRooms).toBe(300);
    const range = { SFU_RTC_MIN_PORT: '40000', SFU_RTC_MAX_PORT: '40999' };
    expect(loadSfuConfig({ ...NATS, ...range, SFU_MAX_ROOMS: '250' }).maxRooms).toBe(250);
    expect(problemOf({ ...NATS, ...range, SFU_MAX_ROOMS: '251' })).toMatch(
      /^Configuration error: SFU_MAX_ROOMS must be at most 250: each call takes 4 ports/,
    );
    expect(problemOf({ ...NATS, SFU_MAX_ROOMS: '0' })).toMatch(/SFU_MAX_ROOMS must be a whole number from 1/);
  });

  it('requires NATS_URL, and never echoes it (it may hold a password)', () => {
    expect(problemOf({})).toMatch(/^Configuration error: NATS_URL is required/);
    const problem = problemOf({ NATS_URL: 'http://admin:hunter2@nats:4222' });
    expect(problem).toMatch(/^Configuration error: NATS_URL must be a URL starting with nats:\/\//);
    expect(problem).not.toContain('hunter2');
  });
});
