import { createHmac } from 'node:crypto';
import type { Position, RecordedEvent } from '../../platform/event-store/event-store.js';
import type { EventSchema } from '../../platform/personal-data/event-schemas.js';
import { isErased } from '../../platform/personal-data/personal-data-vault.js';

/** A command line the events CLI cannot run: said on one line, with the usage. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export const EVENTS_USAGE =
  'usage: npm run events -- ls [prefix] | cat <stream> | all | follow | state <stream> [--at TIME|DURATION|REVISION] | ' +
  'export [--format parquet] --out <dir>; filters: [--type T[,T]] [--context C[,C]] [--actor A] ' +
  '[--since TIME|DURATION] [--until TIME|DURATION] [--from-position COMMIT:PREPARE]; ' +
  'personal fields in the clear (admins): --with-personal-data --as <admin e-mail>';

export interface EventFilters {
  types?: Set<string>;
  contexts?: Set<string>;
  actor?: string;
  since?: Date;
  until?: Date;
  /** Exclusive: events after this position. */
  after?: Position;
}

/** Up to which event a `state` folds: a stream revision (inclusive), or a moment. */
export type StateMoment = { revision: bigint } | { time: Date };

export type EventsCommand = (
  | { verb: 'ls'; prefix: string }
  | { verb: 'cat'; stream: string; filters: EventFilters }
  | { verb: 'all'; filters: EventFilters }
  /** `all`, then every event as it commits, until Ctrl+C (which says where to resume). */
  | { verb: 'follow'; filters: EventFilters }
  /** The stream's aggregate as its decider folds it, up to `at` (default: everything). */
  | { verb: 'state'; stream: string; at?: StateMoment }
  | { verb: 'export'; format: 'parquet'; out: string; filters: EventFilters }
) & {
  /** `--with-personal-data --as <e-mail>`: personal fields decrypted, for that admin (checked, and recorded). */
  personalDataFor?: string;
};

const DURATION = /^(\d+)(s|m|h|d)$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** An ISO time, or a duration back from `now` ('2h', '30m', '7d', '45s'). */
export function parseMoment(raw: string, flag: string, now: Date): Date {
  const ago = DURATION.exec(raw);
  if (ago) return new Date(now.getTime() - Number(ago[1]) * UNIT_MS[ago[2] as keyof typeof UNIT_MS]);
  const at = /^\d{4}-\d{2}-\d{2}/.test(raw) ? new Date(raw) : new Date(NaN);
  if (Number.isNaN(at.getTime()))
    throw new UsageError(
      flag === '--at'
        ? `--at: '${raw}' is neither an ISO time (2026-11-26T10:00:00Z), a duration (2h, 30m, 7d) nor a revision (0, 1, 2…)`
        : `${flag}: '${raw}' is neither an ISO time (2026-11-26T10:00:00Z) nor a duration (2h, 30m, 7d)`,
    );
  return at;
}

const MAX_POSITION = 2n ** 63n - 1n;

/** `COMMIT:PREPARE`, as every line of output prints it. */
export function parsePosition(raw: string): Position {
  const match = /^(\d{1,19}):(\d{1,19})$/.exec(raw);
  const position = match && { commit: BigInt(match[1]!), prepare: BigInt(match[2]!) };
  // Positions are Postgres bigints (EventStoreDB's are smaller): anything past that was never printed.
  if (!position || position.commit > MAX_POSITION || position.prepare > MAX_POSITION)
    throw new UsageError(`--from-position: '${raw}' is not a position (COMMIT:PREPARE, as printed)`);
  return position;
}

export const formatPosition = (position: Position) => `${position.commit}:${position.prepare}`;

/** Reads argv (after the script name). `known`: the event types and contexts there are, to refuse a misspelt one. */
export function parseEventsCommand(
  argv: readonly string[],
  known: { types: ReadonlySet<string>; contexts: ReadonlySet<string> },
  now = new Date(),
): EventsCommand {
  const [verb, ...rest] = argv;
  const positional: string[] = [];
  const filters: EventFilters = {};
  let at: string | undefined;
  let format: string | undefined;
  let out: string | undefined;
  let withPersonalData = false;
  let as: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    if (arg === '--with-personal-data') {
      withPersonalData = true;
      continue;
    }
    const value = rest[++i];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${arg} needs a value\n${EVENTS_USAGE}`);
    switch (arg) {
      case '--type':
        filters.types = listOf(value, known.types, 'event type');
        break;
      case '--context':
        filters.contexts = listOf(value, known.contexts, 'context');
        break;
      case '--actor':
        filters.actor = value;
        break;
      case '--since':
        filters.since = parseMoment(value, arg, now);
        break;
      case '--until':
        filters.until = parseMoment(value, arg, now);
        break;
      case '--from-position':
        filters.after = parsePosition(value);
        break;
      case '--at':
        at = value;
        break;
      case '--format':
        format = value;
        break;
      case '--out':
        out = value;
        break;
      case '--as':
        as = value;
        break;
      default:
        throw new UsageError(`unknown option ${arg}\n${EVENTS_USAGE}`);
    }
  }
  if (filters.since && filters.until && filters.since > filters.until)
    throw new UsageError('--since is after --until: nothing could match');
  if (withPersonalData && !as?.includes('@'))
    throw new UsageError('--with-personal-data needs --as <your admin e-mail address>: who reads it is recorded');
  if (as !== undefined && !withPersonalData) throw new UsageError('--as only goes with --with-personal-data');
  const personal = withPersonalData ? { personalDataFor: as } : {};
  const onlyFor = (flag: string, value: unknown, verbs: string) => {
    if (value !== undefined) throw new UsageError(`${flag} only goes with ${verbs}\n${EVENTS_USAGE}`);
  };
  if (verb !== 'state') onlyFor('--at', at, 'state');
  if (verb !== 'export') {
    onlyFor('--format', format, 'export');
    onlyFor('--out', out, 'export');
  }
  switch (verb) {
    case 'ls':
      if (positional.length > 1 || Object.keys(filters).length || withPersonalData)
        throw new UsageError(`ls takes one stream prefix, no options\n${EVENTS_USAGE}`);
      return { verb, prefix: positional[0] ?? '' };
    case 'cat':
      if (positional.length !== 1) throw new UsageError(`cat needs one stream\n${EVENTS_USAGE}`);
      return { verb, stream: positional[0]!, filters, ...personal };
    case 'all':
    case 'follow':
      if (positional.length)
        throw new UsageError(`${verb} takes no stream (cat <stream> reads one): ${positional[0]}\n${EVENTS_USAGE}`);
      return { verb, filters, ...personal };
    case 'state':
      if (positional.length !== 1) throw new UsageError(`state needs one stream\n${EVENTS_USAGE}`);
      if (Object.keys(filters).length) throw new UsageError(`state takes --at, not filters\n${EVENTS_USAGE}`);
      return {
        verb,
        stream: positional[0]!,
        ...(at === undefined
          ? {}
          : { at: /^\d{1,18}$/.test(at) ? { revision: BigInt(at) } : { time: parseMoment(at, '--at', now) } }),
        ...personal,
      };
    case 'export':
      if (positional.length) throw new UsageError(`export takes no stream: ${positional[0]}\n${EVENTS_USAGE}`);
      if ((format ?? 'parquet') !== 'parquet')
        throw new UsageError(`--format: '${format}' is not one we write (parquet; NDJSON is what \`all\` prints)`);
      if (!out) throw new UsageError(`export needs --out <directory>\n${EVENTS_USAGE}`);
      return { verb, format: 'parquet', out, filters, ...personal };
    default:
      throw new UsageError(verb ? `unknown verb '${verb}'\n${EVENTS_USAGE}` : EVENTS_USAGE);
  }
}

function listOf(value: string, known: ReadonlySet<string>, what: string): Set<string> {
  const names = value.split(',').filter(Boolean);
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length || names.length === 0)
    throw new UsageError(`unknown ${what} ${unknown.join(', ') || "''"}; there are: ${[...known].sort().join(', ')}`);
  return new Set(names);
}

export function matches(event: RecordedEvent, context: string, filters: EventFilters): boolean {
  const at = filters.since || filters.until ? Date.parse(event.metadata.occurredAt) : 0;
  return (
    (!filters.types || filters.types.has(event.type)) &&
    (!filters.contexts || filters.contexts.has(context)) &&
    (!filters.actor || event.metadata.actor === filters.actor) &&
    (!filters.since || at >= filters.since.getTime()) &&
    (!filters.until || at <= filters.until.getTime())
  );
}

/**
 * Secrets, not personal data to audit: a pseudonym even for --with-personal-data, as the dashboard and the audit API
 * never show them to anyone (admin/queries/audit-trail/event-view.ts). A password hash in an analyst's file could be
 * cracked offline.
 */
export const SECRET_FIELDS: ReadonlySet<string> = new Set(['passwordHash']);

/**
 * An event's data as the CLI shows it. A personal field (the event's schema says which) becomes a pseudonym, a keyed
 * hash of its value: the same value reads the same within one key (an analyst can count distinct people), and nobody
 * learns who. `pseudonymKey` null: in the clear (--with-personal-data), but for SECRET_FIELDS, which stay pseudonyms
 * under `secretKey`. An erased field stays erased either way.
 */
export function shownData(
  data: unknown,
  schema: EventSchema,
  pseudonymKey: Buffer | null,
  secretKey: Buffer | null = pseudonymKey,
): unknown {
  if (!schema.personal?.length || typeof data !== 'object' || data === null) return data;
  const shown = { ...(data as Record<string, unknown>) };
  for (const field of schema.personal) {
    const key = pseudonymKey ?? (SECRET_FIELDS.has(field) ? secretKey : null);
    const value = shown[field];
    if (!key || value === undefined || value === null || isErased(value)) continue;
    shown[field] = `pseudonym:${createHmac('sha256', key)
      .update(`${field}\u0000${JSON.stringify(value)}`)
      .digest('base64url')
      .slice(0, 22)}`;
  }
  return shown;
}

/** One NDJSON line: where the event stands, what it is, who did it when, and its data as `shownData` shows it. */
export function eventLine(
  event: RecordedEvent,
  context: string,
  schema: EventSchema,
  pseudonymKey: Buffer | null,
  secretKey: Buffer | null = pseudonymKey,
): string {
  return JSON.stringify({
    position: formatPosition(event.position),
    stream: event.streamId,
    revision: Number(event.revision),
    type: event.type,
    version: event.metadata.schemaVersion,
    context,
    time: event.metadata.occurredAt,
    actor: event.metadata.actor,
    data: shownData(event.data, schema, pseudonymKey, secretKey),
  });
}

/** The events of one stream a `state --at` folds: up to that revision (inclusive), or those that happened by then. */
export function upTo<E extends RecordedEvent>(events: readonly E[], at: StateMoment | undefined): E[] {
  if (!at) return [...events];
  if ('revision' in at) return events.filter((e) => e.revision <= at.revision);
  return events.filter((e) => new Date(e.metadata.occurredAt) <= at.time);
}

/** State as JSON: sets and maps as lists and objects, big integers and dates as strings. */
export function stateJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Set) return [...(v as Set<unknown>)];
    if (v instanceof Map) return Object.fromEntries(v as Map<string, unknown>);
    if (typeof v === 'bigint') return v.toString();
    return v;
  });
}
