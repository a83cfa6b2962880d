import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConnectionString } from '@eventstore/db-client/dist/Client/parseConnectionString.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadSfuConfig } from '../../../sfu/src/config.js';
import { loadConfig, PRODUCTION_VARIABLES } from './config.js';

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

const compose = parse(readFileSync(fileURLToPath(new URL('../../../docker-compose.yml', import.meta.url)), 'utf8')) as {
  services: Record<string, Service>;
};
const services = compose.services;

/** What `docker compose` would put in place of ${VAR} and ${VAR:?message}, with sample secrets. */
function interpolate(value: string): string {
  const samples: Record<string, string> = {
    POSTGRES_PASSWORD: 'pw',
    TURN_SECRET: 'secret',
    TURN_URLS: 'turn:turn.serendip.example:3478',
    PUBLIC_URL: 'https://serendip.example',
    PERSONAL_DATA_KEY: Buffer.alloc(32, 1).toString('base64'),
    JWT_SECRET: Buffer.alloc(32, 2).toString('base64'),
    SMTP_URL: 'smtps://mailer:pw@smtp.example:465',
    SFU_ANNOUNCED_IP: '203.0.113.7',
    NATS_APP_PASSWORD: 'apppw',
    NATS_SFU_PASSWORD: 'sfupw',
    EVENTSTORE_PASSWORD: 'esdbpw',
    EVENTSTORE_OPS_PASSWORD: 'opspw',
  };
  return value.replace(
    /\$\{(\w+)(:[?-]([^}]*))?\}/g,
    (_, name: string, _op, fallback: string | undefined) => samples[name] ?? fallback ?? '',
  );
}

describe('docker-compose.yml (production topology)', () => {
  it('has every part DESIGN.md names, each with a healthcheck', () => {
    expect(Object.keys(services).sort()).toEqual([
      'backend',
      'coturn',
      'eventstore',
      'eventstore-certs',
      'nats',
      'postgres',
      'sfu',
    ]);
    for (const [name, service] of Object.entries(services)) {
      // The certificate maker runs once and exits; the event store waits until it has.
      if (name === 'eventstore-certs') continue;
      expect(service.healthcheck?.test, `${name} healthcheck`).toBeDefined();
    }
  });

  it('gives the backend every production variable, and the backend accepts them', () => {
    const env = Object.fromEntries(
      Object.entries(services.backend!.environment ?? {}).map(([k, v]) => [k, interpolate(v)]),
    );
    for (const variable of PRODUCTION_VARIABLES) expect(env, variable).toHaveProperty(variable);
    const config = loadConfig(env);
    expect(config.nodeEnv).toBe('production');
    expect(config.databaseUrl).toBeDefined();
    expect(config.natsUrl).toBeDefined();
    expect(config.eventStoreUrl).toBeDefined();
    // Calls across NATs need TURN (DESIGN.md "Matching"), with the secret coturn checks credentials against.
    expect(config.ice.turnUrls).toEqual(['turn:turn.serendip.example:3478']);
    expect(services.backend!.environment?.TURN_SECRET).toBe('${TURN_SECRET:?set TURN_SECRET}');
  });

  it("believes the client address a TLS proxy on the Docker network forwards, and no one else's", async () => {
    const express = (await import('express')).default;
    const config = loadConfig({
      ...Object.fromEntries(Object.entries(services.backend!.environment ?? {}).map(([k, v]) => [k, interpolate(v)])),
    });
    expect(typeof config.trustProxy).toBe('string');
    // What Express makes of it (app.ts sets 'trust proxy' to this value).
    const app = express();
    app.set('trust proxy', config.trustProxy);
    const trusted = app.get('trust proxy fn') as (address: string, hop: number) => boolean;
    // A proxy on a Docker bridge or an internal network: its X-Forwarded-For counts (each user keeps their address).
    for (const proxy of ['172.18.0.2', '10.0.3.7', '192.168.5.4', '127.0.0.1'])
      expect(trusted(proxy, 0), proxy).toBe(true);
    // Anyone on the internet: the header they send is ignored.
    expect(trusted('203.0.113.9', 0)).toBe(false);
  });

  it('points each backend URL at a service it waits for until healthy', () => {
    const env = services.backend!.environment ?? {};
    const wired = { DATABASE_URL: 'postgres', NATS_URL: 'nats', EVENTSTORE_URL: 'eventstore' } as const;
    for (const [variable, service] of Object.entries(wired)) {
      expect(new URL(interpolate(env[variable]!)).hostname, variable).toBe(service);
      expect(services.backend!.depends_on?.[service]?.condition, `backend waits for ${service}`).toBe(
        'service_healthy',
      );
    }
  });

  it('runs NATS with JetStream and the sfu on the same bus', () => {
    expect(services.nats!.command).toContain('-js');
    const server = (service: string) => new URL(interpolate(services[service]!.environment!.NATS_URL!)).host;
    expect(server('sfu')).toBe(server('backend'));
    expect(services.sfu!.command).toEqual(['node', 'sfu/dist/main.js']);
  });

  it('runs NATS with the shipped users and permissions, and the backend and the sfu each sign in as their own', () => {
    const nats = services.nats!;
    // The config file the server reads is the repository's, mounted read-only (nats-permissions.int.spec.ts runs it).
    const file = nats.command![nats.command!.indexOf('-c') + 1];
    const mount = nats.volumes?.find((volume) => volume.split(':')[1] === file);
    expect(mount).toBe('./deploy/nats/nats-server.conf:/etc/nats/nats-server.conf:ro');
    expect(existsSync(path.join(repoRoot, 'deploy/nats/nats-server.conf'))).toBe(true);
    expect(nats.environment).toEqual({
      NATS_APP_PASSWORD: '${NATS_APP_PASSWORD:?set NATS_APP_PASSWORD}',
      NATS_SFU_PASSWORD: '${NATS_SFU_PASSWORD:?set NATS_SFU_PASSWORD}',
    });

    expect(services.backend!.environment!.NATS_URL).toBe('nats://app:${NATS_APP_PASSWORD}@nats:4222');
    expect(services.sfu!.environment!.NATS_URL).toBe('nats://sfu:${NATS_SFU_PASSWORD}@nats:4222');
    // And the sfu starts on what compose gives it (production refuses a NATS_URL without a user).
    const sfuEnv = Object.fromEntries(
      Object.entries(services.sfu!.environment ?? {}).map(([k, v]) => [k, interpolate(v)]),
    );
    expect(loadSfuConfig(sfuEnv).nats).toEqual({ servers: 'nats://nats:4222', user: 'sfu', pass: 'sfupw' });
  });

  it('runs the event store secure, and the backend signs in to it as admin over TLS it checks', () => {
    const store = services.eventstore!;
    const env = store.environment ?? {};
    // Insecure mode turns off TLS, authentication and authorization: anyone reaching port 2113 could read every event.
    expect(Object.keys(env).filter((k) => /INSECURE|DISABLE_TLS/.test(k))).toEqual([]);
    expect(env.KURRENTDB_DEFAULT_ADMIN_PASSWORD).toBe('${EVENTSTORE_PASSWORD:?set EVENTSTORE_PASSWORD}');
    expect(env.KURRENTDB_DEFAULT_OPS_PASSWORD).toBe('${EVENTSTORE_OPS_PASSWORD:?set EVENTSTORE_OPS_PASSWORD}');

    // Its certificate, key and CA are on volumes the one-shot certificate maker writes, which it waits for.
    const certs = services['eventstore-certs']!;
    const volumeAt = (service: Service, dir: string) =>
      service.volumes?.find((volume) => dir.startsWith(`${volume.split(':')[1]}/`))?.split(':')[0];
    const written = new Set(certs.volumes?.map((volume) => volume.split(':')[0]));
    for (const file of [
      env.KURRENTDB_CERTIFICATE_FILE!,
      env.KURRENTDB_CERTIFICATE_PRIVATE_KEY_FILE!,
      `${env.KURRENTDB_TRUSTED_ROOT_CERTIFICATES_PATH}/ca.crt`,
    ]) {
      expect(written.has(volumeAt(store, file)!), file).toBe(true);
    }
    expect(store.depends_on?.['eventstore-certs']?.condition).toBe('service_completed_successfully');
    expect(store.healthcheck?.test.join(' ')).toMatch(/curl -fsS --cacert \S+ https:\/\/localhost:2113\/health\/live/);

    // The backend's URL as the event store client reads it: the admin user, TLS on, the CA from that volume.
    const url = interpolate(services.backend!.environment!.EVENTSTORE_URL!);
    const options = parseConnectionString(url);
    expect(options.defaultCredentials).toEqual({ username: 'admin', password: 'esdbpw' });
    expect(options.tls).not.toBe(false);
    expect(options.hosts).toEqual([{ address: 'eventstore', port: 2113 }]);
    const caVolume = volumeAt(store, `${env.KURRENTDB_TRUSTED_ROOT_CERTIFICATES_PATH}/ca.crt`);
    expect(volumeAt(services.backend!, options.tlsCAFile!)).toBe(caVolume);
    // The backend gets the CA's certificate only, never a private key.
    expect(services.backend!.volumes?.filter((v) => /eventstore/.test(v))).toEqual([`${caVolume}:/certs/ca:ro`]);
  });

  it('keeps secrets out of the file: they must come from the environment', () => {
    expect(services.postgres!.environment?.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    expect(services.backend!.environment?.PERSONAL_DATA_KEY).toMatch(/^\$\{PERSONAL_DATA_KEY:\?/);
    expect(services.nats!.environment?.NATS_APP_PASSWORD).toMatch(/^\$\{NATS_APP_PASSWORD:\?/);
    expect(services.eventstore!.environment?.KURRENTDB_DEFAULT_ADMIN_PASSWORD).toMatch(/^\$\{EVENTSTORE_PASSWORD:\?/);
    expect(services.coturn!.command?.join(' ')).toMatch(/static-auth-secret=\$\{TURN_SECRET:\?/);
  });
});
