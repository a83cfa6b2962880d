import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig, PRODUCTION_VARIABLES } from './config.js';

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}

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
  };
  return value.replace(
    /\$\{(\w+)(:[?-]([^}]*))?\}/g,
    (_, name: string, _op, fallback: string | undefined) => samples[name] ?? fallback ?? '',
  );
}

describe('docker-compose.yml (production topology)', () => {
  it('has every part DESIGN.md names, each with a healthcheck', () => {
    expect(Object.keys(services).sort()).toEqual(['backend', 'coturn', 'eventstore', 'nats', 'postgres', 'sfu']);
    for (const [name, service] of Object.entries(services)) {
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
    expect(services.sfu!.environment?.NATS_URL).toBe(services.backend!.environment?.NATS_URL);
    expect(services.sfu!.command).toEqual(['node', 'sfu/dist/main.js']);
  });

  it('keeps secrets out of the file: they must come from the environment', () => {
    expect(services.postgres!.environment?.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    expect(services.backend!.environment?.PERSONAL_DATA_KEY).toMatch(/^\$\{PERSONAL_DATA_KEY:\?/);
    expect(services.coturn!.command?.join(' ')).toMatch(/static-auth-secret=\$\{TURN_SECRET:\?/);
  });
});
