import { isIP } from 'node:net';
import { z } from 'zod';

// The standalone SFU node's environment, checked at once like the backend's (backend/src/config/config.ts): a bad
// variable stops the start with one line that names it. MEDIASOUP_WORKER_BIN is read by mediasoup itself.

const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .trim()
    .refine((v) => /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max, {
      message: `must be a whole number from ${min} to ${max}`,
    })
    .transform(Number);

const ipAddress = z
  .string()
  .trim()
  .optional()
  .transform((v) => v || undefined)
  .refine((v) => v === undefined || isIP(v) !== 0, { message: 'must be an IPv4 or IPv6 address' });

const schema = z
  .object({
    NODE_ENV: z
      .enum(['development', 'production', 'test'], { message: 'must be development, production or test' })
      .default('development'),
    SFU_HEALTH_PORT: wholeNumber(0, 65535).default(3100),
    SFU_HOST: z.string().trim().min(1, { message: 'must not be empty' }).default('0.0.0.0'),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        message: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
    // Required: the backend reaches a standalone SFU over NATS only.
    NATS_URL: z
      .string({ message: 'is required: the backend reaches a standalone SFU over NATS (e.g. nats://nats:4222)' })
      .trim()
      .refine((v) => isUrlWith(v, ['nats:', 'tls:', 'ws:', 'wss:']), {
        message: 'must be a URL starting with nats://, tls://, ws:// or wss:// (e.g. nats://nats:4222)',
      }),
    SFU_RTC_MIN_PORT: wholeNumber(1024, 65535).default(40_000),
    SFU_RTC_MAX_PORT: wholeNumber(1024, 65535).default(49_999),
    // One per core when unset.
    SFU_WORKERS: wholeNumber(1, 256).optional(),
    // Calls this node holds at once; when unset, what the RTC port range holds (sfu-service.ts, maxRooms).
    SFU_MAX_ROOMS: wholeNumber(1, 1_000_000).optional(),
    SFU_LISTEN_IP: ipAddress.transform((v) => v ?? '0.0.0.0'),
    SFU_ANNOUNCED_IP: ipAddress,
    // Part of a NATS subject (sfu.node.<id>): no dots, spaces or wildcards. Random when unset.
    SFU_NODE_ID: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined)
      .refine((v) => v === undefined || /^[\w-]+$/.test(v), {
        message: 'may hold only letters, digits, _ and - (it is part of a NATS subject)',
      }),
  })
  .superRefine((env, ctx) => {
    // Production NATS has no anonymous access (deploy/nats/nats-server.conf): a node without its user would only
    // retry, and one that got in without a user would be on a NATS open to anyone.
    if (env.NODE_ENV === 'production' && !natsServer(env.NATS_URL).user) {
      ctx.addIssue({
        code: 'custom',
        path: ['NATS_URL'],
        message: 'must name the NATS user and password when NODE_ENV=production (nats://sfu:PASSWORD@nats:4222)',
      });
    }
    if (env.SFU_RTC_MIN_PORT > env.SFU_RTC_MAX_PORT) {
      ctx.addIssue({ code: 'custom', path: ['SFU_RTC_MIN_PORT'], message: 'must not exceed SFU_RTC_MAX_PORT' });
    }
    // Each call takes 4 ports of the range: more rooms than that would run out of ports under running calls.
    const portsForRooms = Math.floor((env.SFU_RTC_MAX_PORT - env.SFU_RTC_MIN_PORT + 1) / 4);
    if (env.SFU_MAX_ROOMS !== undefined && env.SFU_MAX_ROOMS > portsForRooms) {
      ctx.addIssue({
        code: 'custom',
        path: ['SFU_MAX_ROOMS'],
        message: `must be at most ${portsForRooms}: each call takes 4 ports of SFU_RTC_MIN_PORT..SFU_RTC_MAX_PORT`,
      });
    }
  })
  .transform((env) => ({
    healthPort: env.SFU_HEALTH_PORT,
    host: env.SFU_HOST,
    logLevel: env.LOG_LEVEL,
    natsUrl: env.NATS_URL,
    /** What `connect` takes: the server, and the user and password the URL names. */
    nats: natsServer(env.NATS_URL),
    rtcMinPort: env.SFU_RTC_MIN_PORT,
    rtcMaxPort: env.SFU_RTC_MAX_PORT,
    workers: env.SFU_WORKERS,
    maxRooms: env.SFU_MAX_ROOMS,
    listenIp: env.SFU_LISTEN_IP,
    announcedIp: env.SFU_ANNOUNCED_IP,
    nodeId: env.SFU_NODE_ID,
  }));

export type SfuConfig = z.output<typeof schema>;

const VARIABLES = Object.keys(schema.in.shape) as (keyof z.input<typeof schema>)[];

/**
 * The nats client ignores a user and password in a server URL: they are taken out here and handed to it as
 * options, and the server is given without them (so no log line shows them).
 */
function natsServer(url: string): { servers: string; user?: string; pass?: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { servers: url }; // NATS_URL's own check names it
  }
  const user = decoded(parsed.username);
  const pass = decoded(parsed.password);
  const servers = `${parsed.protocol}//${parsed.host}`;
  return user && pass ? { servers, user, pass } : { servers };
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part; // a stray %: taken as it is
  }
}

function isUrlWith(value: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

export class SfuConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Configuration error: ${problems.join('; ')}`);
    this.name = 'SfuConfigError';
  }
}

/** Reads and checks the environment; throws an SfuConfigError naming each bad variable, on one line. */
export function loadSfuConfig(env: NodeJS.ProcessEnv = process.env): SfuConfig {
  const picked = Object.fromEntries(VARIABLES.map((name) => [name, env[name]]));
  const result = schema.safeParse(picked);
  if (result.success) return result.data;
  throw new SfuConfigError(
    result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'configuration');
      const value = env[name];
      // Never echo a URL: NATS_URL may carry a user and password. Nor what was never set.
      const shown = name.endsWith('_URL') || value === undefined ? '' : ` (got ${JSON.stringify(value)})`;
      return `${name} ${issue.message}${shown}`;
    }),
  );
}
