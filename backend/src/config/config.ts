import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DEFAULT_PUBLIC_CONFIG, MEDIA_MODES, type PublicConfig } from '@serendip/proto';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || isUrlWith(v, protocols), {
      message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    });

/** Does a URL, or one of a comma-separated list (the client uses its user for them all), name a user and password? */
function hasUserAndPassword(value: string): boolean {
  return value.split(',').some((part) => {
    try {
      const url = new URL(part.trim());
      return url.username !== '' && url.password !== '';
    } catch {
      return false;
    }
  });
}

/** An event-store connection string with tls=false (the client reads its keys in any case, with _ or -). */
function switchesTlsOff(value: string): boolean {
  const query = value.split('?')[1] ?? '';
  return [...new URLSearchParams(query)].some(
    ([key, setting]) => key.toLowerCase().replace(/[_-]/g, '') === 'tls' && setting.trim() === 'false',
  );
}

function isUrlWith(value: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** A comma-separated list of ICE server URLs with one of these schemes ('turn:host:3478?transport=udp, turns:...'). */
const iceUrls = (schemes: string[]) =>
  z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((url) => url.trim())
        .filter(Boolean),
    )
    .refine((urls) => urls.every((url) => schemes.some((scheme) => url.startsWith(scheme))), {
      message: `must be a comma-separated list of ${schemes.join(' or ')} URLs`,
    });

const port = (fallback: number) =>
  z
    .string()
    .trim()
    .default(String(fallback))
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 65535, {
      message: 'must be a whole number from 1 to 65535',
    })
    .transform(Number);

/**
 * Every environment variable the backend reads, with its default. The README's configuration table lists
 * the same variables; docker-compose.yml wires those marked `production` below.
 */
const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: port(3000),
    HOST: z.string().trim().min(1).default('0.0.0.0'),
    PUBLIC_URL: optionalUrl(['http:', 'https:']),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
    DATABASE_POOL_SIZE: z
      .string()
      .trim()
      .default('10')
      .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 500, {
        message: 'must be a whole number from 1 to 500',
      })
      .transform(Number),
    DATA_DIR: z.string().trim().min(1).default('.data'),
    EMBEDDED_POSTGRES_PORT: port(54329),
    NATS_URL: optionalUrl(['nats:', 'tls:', 'ws:', 'wss:']),
    EVENTSTORE_URL: optionalUrl(['esdb:', 'esdb+discover:', 'kurrentdb:', 'kurrentdb+discover:']),
    FRONTEND_DIST: z.string().trim().min(1).optional(),
    SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
    ADMIN_EMAIL: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined)
      .refine((v) => v === undefined || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), { message: 'must be an e-mail address' }),
    ADMIN_PASSWORD: z
      .string()
      .optional()
      .transform((v) => v || undefined),
    MAIL_FROM: z.string().trim().min(1).default('Serendip <no-reply@localhost>'),
    PERSONAL_DATA_KEY: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v ? Buffer.from(v, 'base64') : undefined))
      .refine((key) => key === undefined || key.length === 32, {
        message: 'must be 32 bytes in base64 (openssl rand -base64 32)',
      }),
    JWT_SECRET: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v ? v.split(',').map((part) => Buffer.from(part.trim(), 'base64')) : undefined))
      .refine((keys) => keys === undefined || keys.every((key) => key.length >= 32), {
        message: 'must be one or more comma-separated secrets of 32 bytes or more in base64 (openssl rand -base64 32)',
      }),
    SUPPORT_EMAIL: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined)
      .refine((v) => v === undefined || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), { message: 'must be an e-mail address' }),
    COMPANY_NAME: z.string().trim().max(120).optional(),
    SOCIAL_INSTAGRAM_URL: optionalUrl(['https:']),
    SOCIAL_TELEGRAM_URL: optionalUrl(['https:']),
    SOCIAL_X_URL: optionalUrl(['https:']),
    SOCIAL_DISCORD_URL: optionalUrl(['https:']),
    SYSTEM_STATUS_URL: optionalUrl(['http:', 'https:']),
    STUN_URLS: iceUrls(['stun:', 'stuns:']),
    TURN_URLS: iceUrls(['turn:', 'turns:']),
    TURN_SECRET: z
      .string()
      .optional()
      .transform((v) => v || undefined),
    // How long a call's TURN credentials let anyone holding them open a relay. coturn checks them only when a
    // relay is allocated, not when it is refreshed or given permissions (turn-peers.int.spec.ts), so a call that
    // outlasts them keeps its relay, and a resumed call gets new ones; credentials that leak stop working soon.
    TURN_CREDENTIAL_TTL_SECONDS: z
      .string()
      .trim()
      .default('600')
      .refine((v) => /^\d+$/.test(v) && Number(v) >= 60 && Number(v) <= 3_600, {
        message: 'must be a whole number of seconds from 60 to 3600',
      })
      .transform(Number),
    // How calls carry their media (p2p, relay through the SFU, or auto: p2p first, the SFU when it fails).
    MEDIA_MODE: z.enum(MEDIA_MODES, { message: 'must be p2p, relay or auto' }).default('auto'),
    // The SFU in this process (npm start, one node) or only on its own nodes (production: `sfu` service).
    SFU_EMBEDDED: z.enum(['true', 'false'], { message: 'must be true or false' }).default('true'),
    // The API's OpenAPI and AsyncAPI documents (/api/docs): served unless NODE_ENV=production, there only when 'true'.
    API_DOCS: z.enum(['true', 'false'], { message: 'must be true or false' }).optional(),
    SFU_LISTEN_IP: z.ipv4({ message: 'must be an IPv4 address' }).default('127.0.0.1'),
    SFU_ANNOUNCED_IP: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined)
      .refine((v) => v === undefined || isIP(v) !== 0, { message: 'must be an IP address' }),
    SFU_RTC_MIN_PORT: port(40000),
    SFU_RTC_MAX_PORT: port(49999),
    // Bytes all unfinished avatar uploads together may declare (each up to 5 MiB); past it a new one gets 503.
    AVATAR_PENDING_BYTES_MAX: z
      .string()
      .trim()
      .default(String(256 * 1024 * 1024))
      .refine((v) => /^\d+$/.test(v) && Number(v) >= 5 * 1024 * 1024 && Number.isSafeInteger(Number(v)), {
        message: 'must be a whole number of bytes, at least 5242880 (one 5 MiB upload)',
      })
      .transform(Number),
    // Days a snapshot (report evidence) is kept unless an open case holds it.
    EVIDENCE_RETENTION_DAYS: z
      .string()
      .trim()
      .default('90')
      .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 3650, {
        message: 'must be a whole number of days from 1 to 3650',
      })
      .transform(Number),
    LOG_RETENTION_DAYS: z
      .string()
      .trim()
      .default('14')
      .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 3650, {
        message: 'must be a whole number of days from 1 to 3650',
      })
      .transform(Number),
    TRUST_PROXY: z
      .string()
      .trim()
      .default('loopback')
      .refine((v) => /^(true|false|\d+|[\w.:/, -]+)$/.test(v), {
        message: 'must be true, false, a hop count, or a list of addresses',
      }),
  })
  .superRefine((env, ctx) => {
    if (env.SFU_RTC_MIN_PORT > env.SFU_RTC_MAX_PORT) {
      ctx.addIssue({ code: 'custom', path: ['SFU_RTC_MIN_PORT'], message: 'must not exceed SFU_RTC_MAX_PORT' });
    }
    // The embedded Postgres is for a developer's machine; production must say where its data lives.
    if (env.NODE_ENV === 'production' && !env.DATABASE_URL) {
      ctx.addIssue({ code: 'custom', path: ['DATABASE_URL'], message: 'is required when NODE_ENV=production' });
    }
    // Without the secret no TURN credentials can be made: calls across NATs would show black video.
    if (env.TURN_URLS.length > 0 && !env.TURN_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['TURN_SECRET'], message: 'is required when TURN_URLS is set' });
    }
    if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.ADMIN_EMAIL ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL'],
        message: 'must be set together with the other ADMIN_ variable',
      });
    }
    // Without it mail goes to the dev outbox, which production must never rely on.
    if (env.NODE_ENV === 'production' && !env.SMTP_URL) {
      ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: 'is required when NODE_ENV=production' });
    }
    // Without it a development key is made in DATA_DIR; in production it must be a managed secret.
    if (env.NODE_ENV === 'production' && !env.PERSONAL_DATA_KEY) {
      ctx.addIssue({ code: 'custom', path: ['PERSONAL_DATA_KEY'], message: 'is required when NODE_ENV=production' });
    }
    // Sessions are signed with their own secret: whoever holds the personal-data key must not be able to forge them.
    if (env.NODE_ENV === 'production' && !env.JWT_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'is required when NODE_ENV=production' });
    }
    // Production NATS and the event store let no one in without a user (docker-compose.yml): a backend without
    // one would only retry, and one that got in without one would be on a server open to anyone who reaches it.
    if (env.NODE_ENV === 'production' && env.NATS_URL && !hasUserAndPassword(env.NATS_URL)) {
      ctx.addIssue({
        code: 'custom',
        path: ['NATS_URL'],
        message: 'must name a user and its password when NODE_ENV=production (nats://app:PASSWORD@nats:4222)',
      });
    }
    if (env.NODE_ENV === 'production' && env.EVENTSTORE_URL) {
      if (!hasUserAndPassword(env.EVENTSTORE_URL)) {
        ctx.addIssue({
          code: 'custom',
          path: ['EVENTSTORE_URL'],
          message:
            'must name a user and its password when NODE_ENV=production (esdb://admin:PASSWORD@eventstore:2113?tls=true)',
        });
      }
      // The password and every event would cross the network in the clear.
      if (switchesTlsOff(env.EVENTSTORE_URL)) {
        ctx.addIssue({
          code: 'custom',
          path: ['EVENTSTORE_URL'],
          message: 'must not turn TLS off (tls=false) when NODE_ENV=production',
        });
      }
    }
  })
  .transform((env) => {
    const dataDir = path.resolve(env.DATA_DIR);
    return {
      nodeEnv: env.NODE_ENV,
      port: env.PORT,
      host: env.HOST,
      publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
      logLevel: env.LOG_LEVEL,
      databaseUrl: env.DATABASE_URL,
      databasePoolSize: env.DATABASE_POOL_SIZE,
      dataDir,
      embeddedPostgres: { dir: path.join(dataDir, 'postgres'), port: env.EMBEDDED_POSTGRES_PORT },
      natsUrl: env.NATS_URL,
      eventStoreUrl: env.EVENTSTORE_URL,
      personalDataKey: env.PERSONAL_DATA_KEY,
      /** Access-token secrets: the first signs, every one verifies (rotation). Unset: derived for development. */
      jwtSecrets: env.JWT_SECRET,
      smtpUrl: env.SMTP_URL,
      /** An admin account ensured at every start, or undefined. */
      admin:
        env.ADMIN_EMAIL && env.ADMIN_PASSWORD
          ? { emailAddress: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }
          : undefined,
      mailFrom: env.MAIL_FROM,
      /** ICE servers handed to each side of a call: TURN with short-lived credentials (coturn REST). */
      ice: {
        stunUrls: env.STUN_URLS,
        turnUrls: env.TURN_URLS,
        turnSecret: env.TURN_SECRET,
        turnCredentialTtlSeconds: env.TURN_CREDENTIAL_TTL_SECONDS,
      },
      /** What the web client is told about this deployment, written into index.html. */
      publicConfig: {
        supportEmail: env.SUPPORT_EMAIL ?? DEFAULT_PUBLIC_CONFIG.supportEmail,
        companyName: env.COMPANY_NAME || DEFAULT_PUBLIC_CONFIG.companyName,
        socialLinks: {
          instagram: env.SOCIAL_INSTAGRAM_URL,
          telegram: env.SOCIAL_TELEGRAM_URL,
          x: env.SOCIAL_X_URL,
          discord: env.SOCIAL_DISCORD_URL,
        },
        systemStatusUrl: env.SYSTEM_STATUS_URL,
      } satisfies PublicConfig,
      /** The media path of calls, and the SFU this process runs itself (when embedded). */
      media: {
        mode: env.MEDIA_MODE,
        embeddedSfu: env.SFU_EMBEDDED === 'true',
        listenIp: env.SFU_LISTEN_IP,
        announcedIp: env.SFU_ANNOUNCED_IP,
        rtcMinPort: env.SFU_RTC_MIN_PORT,
        rtcMaxPort: env.SFU_RTC_MAX_PORT,
      },
      /** Whether /api/docs (Swagger UI, the OpenAPI and AsyncAPI documents) is served. */
      apiDocs: env.API_DOCS === undefined ? env.NODE_ENV !== 'production' : env.API_DOCS === 'true',
      frontendDist: path.resolve(env.FRONTEND_DIST ?? path.join(repoRoot, 'frontend', 'dist')),
      avatarPendingBytesMax: env.AVATAR_PENDING_BYTES_MAX,
      evidenceRetentionDays: env.EVIDENCE_RETENTION_DAYS,
      /** Days the System Log keeps a line (spec 2); older lines are deleted hourly. */
      logRetentionDays: env.LOG_RETENTION_DAYS,
      /** Express's `trust proxy`: which hops may set X-Forwarded-For (the client IP for sessions, limits, bans). */
      trustProxy:
        env.TRUST_PROXY === 'true'
          ? true
          : env.TRUST_PROXY === 'false'
            ? false
            : /^\d+$/.test(env.TRUST_PROXY)
              ? Number(env.TRUST_PROXY)
              : env.TRUST_PROXY,
    };
  });

export type Config = z.output<typeof schema>;

/** The variables production must set (docker-compose.yml is checked against this list). */
export const PRODUCTION_VARIABLES = [
  'NODE_ENV',
  'PORT',
  'PUBLIC_URL',
  'DATABASE_URL',
  'NATS_URL',
  'EVENTSTORE_URL',
] as const;

export const CONFIG_VARIABLES = Object.keys(schema.in.shape) as (keyof z.input<typeof schema>)[];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates the environment; throws a ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const picked = Object.fromEntries(CONFIG_VARIABLES.map((k) => [k, env[k]]));
  const result = schema.safeParse(picked);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'configuration');
      // Never echo a URL's value: it may hold a password.
      const shown =
        name.endsWith('_URL') || name.endsWith('_KEY') || name.endsWith('_PASSWORD') || name.endsWith('_SECRET')
          ? ''
          : ` (got ${JSON.stringify(env[name])})`;
      return `${name} ${issue.message}${shown}`;
    }),
  );
}
