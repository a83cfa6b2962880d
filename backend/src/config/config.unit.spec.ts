import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration', () => {
  it('runs on embedded defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.embeddedPostgres.dir).toBe(path.resolve('.data', 'postgres'));
    expect(config.natsUrl).toBeUndefined();
  });

  it('reads the variables it is given', () => {
    const config = loadConfig({ PORT: '8080', DATABASE_URL: 'postgres://u:p@db:5432/s', DATA_DIR: '/var/lib/s' });
    expect(config.port).toBe(8080);
    expect(config.databaseUrl).toBe('postgres://u:p@db:5432/s');
    expect(config.embeddedPostgres.dir).toBe('/var/lib/s/postgres');
    expect(config.publicUrl).toBe('http://localhost:8080');
  });

  it('names a malformed port and shows what it got', () => {
    expect(problemsOf({ PORT: 'abc' })).toEqual(['PORT must be a whole number from 1 to 65535 (got "abc")']);
    expect(problemsOf({ PORT: '70000' })[0]).toMatch(/^PORT /);
  });

  it('names every bad variable at once', () => {
    const problems = problemsOf({ PORT: '0', LOG_LEVEL: 'loud' });
    expect(problems.map((p) => p.split(' ')[0])).toEqual(['PORT', 'LOG_LEVEL']);
  });

  it('never echoes a URL, which may hold a password', () => {
    const [problem] = problemsOf({ DATABASE_URL: 'mysql://admin:hunter2@db/x' });
    expect(problem).toMatch(/^DATABASE_URL must be a URL starting with postgres:\/\/ or postgresql:\/\//);
    expect(problem).not.toContain('hunter2');
  });

  it('will not run production on the embedded Postgres or a development key', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      'DATABASE_URL is required when NODE_ENV=production',
      'SMTP_URL is required when NODE_ENV=production',
      'PERSONAL_DATA_KEY is required when NODE_ENV=production',
      'JWT_SECRET is required when NODE_ENV=production',
    ]);
    const key = Buffer.alloc(32, 7).toString('base64');
    const config = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db/s',
      PERSONAL_DATA_KEY: key,
      JWT_SECRET: `${Buffer.alloc(32, 8).toString('base64')},${Buffer.alloc(40, 9).toString('base64')}`,
      SMTP_URL: 'smtps://mailer:pw@smtp.example:465',
    });
    expect(config.personalDataKey).toEqual(Buffer.alloc(32, 7));
    expect(config.jwtSecrets).toEqual([Buffer.alloc(32, 8), Buffer.alloc(40, 9)]);
  });

  it('will not run production on a NATS or an event store that takes anyone, nor on one reached in the clear', () => {
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db/s',
      PERSONAL_DATA_KEY: Buffer.alloc(32, 7).toString('base64'),
      JWT_SECRET: Buffer.alloc(32, 8).toString('base64'),
      SMTP_URL: 'smtps://mailer:pw@smtp.example:465',
    };
    expect(
      problemsOf({ ...production, NATS_URL: 'nats://nats:4222', EVENTSTORE_URL: 'esdb://eventstore:2113?tls=false' }),
    ).toEqual([
      'NATS_URL must name a user and its password when NODE_ENV=production (nats://app:PASSWORD@nats:4222)',
      'EVENTSTORE_URL must name a user and its password when NODE_ENV=production ' +
        '(esdb://admin:PASSWORD@eventstore:2113?tls=true)',
      'EVENTSTORE_URL must not turn TLS off (tls=false) when NODE_ENV=production',
    ]);
    // A user alone, or TLS off however the key is spelt, is refused too; no password is ever printed.
    const problems = problemsOf({
      ...production,
      NATS_URL: 'nats://app@nats:4222',
      EVENTSTORE_URL: 'esdb://admin:hunter2@eventstore:2113?TLS=false',
    });
    expect(problems).toEqual([
      expect.stringMatching(/^NATS_URL must name a user and its password/),
      'EVENTSTORE_URL must not turn TLS off (tls=false) when NODE_ENV=production',
    ]);
    expect(problems.join(' ')).not.toContain('hunter2');

    const config = loadConfig({
      ...production,
      NATS_URL: 'nats://app:s3cret@nats:4222',
      EVENTSTORE_URL: 'esdb://admin:s3cret@eventstore:2113?tls=true&tlsCAFile=/certs/ca/ca.crt',
    });
    expect(config.natsUrl).toBe('nats://app:s3cret@nats:4222');
    // Development and tests may use servers without users.
    expect(
      loadConfig({ NATS_URL: 'nats://127.0.0.1:4222', EVENTSTORE_URL: 'esdb://127.0.0.1:2113?tls=false' }),
    ).toMatchObject({ natsUrl: 'nats://127.0.0.1:4222' });
  });

  it('refuses a short JWT_SECRET without printing it', () => {
    const [problem] = problemsOf({ JWT_SECRET: Buffer.alloc(16, 1).toString('base64') });
    expect(problem).toBe(
      'JWT_SECRET must be one or more comma-separated secrets of 32 bytes or more in base64 (openssl rand -base64 32)',
    );
  });

  it('refuses a personal-data key of the wrong size without printing it', () => {
    const [problem] = problemsOf({ PERSONAL_DATA_KEY: Buffer.alloc(16, 1).toString('base64') });
    expect(problem).toBe('PERSONAL_DATA_KEY must be 32 bytes in base64 (openssl rand -base64 32)');
  });

  it('reads which proxies to trust for client addresses', () => {
    expect(loadConfig({}).trustProxy).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback, 10.0.0.0/8');
  });

  it('takes an admin account only as a pair, never printing the password', () => {
    expect(problemsOf({ ADMIN_EMAIL: 'root@example.com' })).toEqual([
      'ADMIN_PASSWORD must be set together with the other ADMIN_ variable',
    ]);
    const [problem] = problemsOf({ ADMIN_EMAIL: 'not-mail', ADMIN_PASSWORD: 's3cret-pass' });
    expect(problem).toBe('ADMIN_EMAIL must be an e-mail address (got "not-mail")');
    expect(loadConfig({ ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: 's3cret-pass' }).admin).toEqual({
      emailAddress: 'root@example.com',
      password: 's3cret-pass',
    });
  });

  it('treats an empty optional URL as unset', () => {
    expect(loadConfig({ NATS_URL: '', DATABASE_URL: ' ' }).databaseUrl).toBeUndefined();
  });

  it('reads the ICE servers for calls: TURN needs its secret, which is never printed', () => {
    expect(loadConfig({}).ice).toEqual({
      stunUrls: [],
      turnUrls: [],
      turnSecret: undefined,
      turnCredentialTtlSeconds: 600,
    });
    const config = loadConfig({
      TURN_URLS: 'turn:127.0.0.1:3478?transport=udp, turns:turn.example.org:5349',
      TURN_SECRET: 'shh',
    });
    expect(config.ice.turnUrls).toEqual(['turn:127.0.0.1:3478?transport=udp', 'turns:turn.example.org:5349']);
    expect(problemsOf({ TURN_URLS: 'turn:127.0.0.1:3478' })).toEqual(['TURN_SECRET is required when TURN_URLS is set']);
    expect(problemsOf({ TURN_URLS: 'http://127.0.0.1:3478', TURN_SECRET: 'shh' })).toEqual([
      'TURN_URLS must be a comma-separated list of turn: or turns: URLs (got "http://127.0.0.1:3478")',
    ]);
  });

  it('lets TURN credentials live an hour at most', () => {
    expect(loadConfig({ TURN_CREDENTIAL_TTL_SECONDS: '3600' }).ice.turnCredentialTtlSeconds).toBe(3600);
    expect(problemsOf({ TURN_CREDENTIAL_TTL_SECONDS: '21600' })).toEqual([
      'TURN_CREDENTIAL_TTL_SECONDS must be a whole number of seconds from 60 to 3600 (got "21600")',
    ]);
  });

  it('reads how calls carry their media: auto with an in-process SFU on loopback unless told otherwise', () => {
    expect(loadConfig({}).media).toEqual({
      mode: 'auto',
      embeddedSfu: true,
      listenIp: '127.0.0.1',
      announcedIp: undefined,
      rtcMinPort: 40_000,
      rtcMaxPort: 49_999,
    });
    expect(
      loadConfig({ MEDIA_MODE: 'relay', SFU_EMBEDDED: 'false', SFU_ANNOUNCED_IP: '203.0.113.7' }).media,
    ).toMatchObject({ mode: 'relay', embeddedSfu: false, announcedIp: '203.0.113.7' });
    expect(problemsOf({ MEDIA_MODE: 'sfu', SFU_LISTEN_IP: 'everywhere' })).toEqual([
      'MEDIA_MODE must be p2p, relay or auto (got "sfu")',
      'SFU_LISTEN_IP must be an IPv4 address (got "everywhere")',
    ]);
    expect(problemsOf({ SFU_RTC_MIN_PORT: '50000' })).toEqual([
      'SFU_RTC_MIN_PORT must not exceed SFU_RTC_MAX_PORT (got "50000")',
    ]);
  });
});

describe('API docs (/api/docs)', () => {
  const production = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://u:p@db:5432/s',
    SMTP_URL: 'smtp://mail:25',
    PERSONAL_DATA_KEY: Buffer.alloc(32, 1).toString('base64'),
    JWT_SECRET: 'b'.repeat(64),
  };

  it('are served outside production and not in production unless API_DOCS=true', () => {
    expect(loadConfig({}).apiDocs).toBe(true);
    expect(loadConfig({ API_DOCS: 'false' }).apiDocs).toBe(false);
    expect(loadConfig(production).apiDocs).toBe(false);
    expect(loadConfig({ ...production, API_DOCS: 'true' }).apiDocs).toBe(true);
  });

  it('names a value that is not true or false', () => {
    expect(problemsOf({ API_DOCS: 'yes' })).toEqual(['API_DOCS must be true or false (got "yes")']);
  });
});
