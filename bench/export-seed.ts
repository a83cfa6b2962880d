/** The log `bench:export` exports: 1,000,000 events over 30 days, 5 % of them with a personal field (sealed). */
import { randomUUID } from 'node:crypto';
import { contexts } from '@serendip/backend/contexts.js';
import type { createDb } from '@serendip/backend/platform/database/database.js';
import { PostgresEventStore } from '@serendip/backend/platform/event-store/postgres/postgres-event-store.js';
import { EventSchemas } from '@serendip/backend/platform/personal-data/event-schemas.js';
import { PersonalDataVault } from '@serendip/backend/platform/personal-data/personal-data-vault.js';
import { ProtectingEventStore } from '@serendip/backend/platform/personal-data/protecting-event-store.js';
import { sql } from 'kysely';
import type { Logger } from 'pino';

export const PLAIN_EVENTS = 950_000;
export const SEALED_EVENTS = 50_000;
const SQL_CHUNK = 50_000;
const POSTS_PER_APPEND = 500;
const DAYS = 30;

/** Calls paired and ended, and likes: ids and words, nothing personal (as most of the log is). */
export async function seedPlain(db: ReturnType<typeof createDb>) {
  for (let from = 0; from < PLAIN_EVENTS; from += SQL_CHUNK) {
    const to = Math.min(from + SQL_CHUNK, PLAIN_EVENTS) - 1;
    await sql`
      insert into events (id, stream_id, revision, type, data, metadata)
      select gen_random_uuid(),
             case when g % 5 = 4 then 'feed-like-' || (g / 5) else 'matching-match-' || (g / 5) end,
             case when g % 5 = 4 then 0 else g % 5 end,
             case g % 5 when 0 then 'MatchPaired' when 4 then 'PostLiked' else 'MatchEnded' end,
             jsonb_build_object('matchId', md5(g::text), 'userId', md5((g % 10000)::text), 'n', g),
             jsonb_build_object(
               'actor', 'system', 'causationId', md5(g::text), 'correlationId', md5(g::text), 'schemaVersion', 1,
               'occurredAt', to_char((now() - make_interval(secs => (g::float8 / ${PLAIN_EVENTS}) * ${DAYS} * 86400))
                 at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      from generate_series(${from}::bigint, ${to}::bigint) g`.execute(db);
  }
}

/** Posts whose text is personal: appended through the product's store, so it is sealed under each author's key. */
export async function seedSealed(url: string, db: ReturnType<typeof createDb>, key: Buffer, logger: Logger) {
  const schemas = new EventSchemas();
  for (const context of contexts) schemas.register(...context.eventSchemas);
  const inner = new PostgresEventStore(db, { connectionString: url, logger });
  const store = new ProtectingEventStore(inner, schemas, new PersonalDataVault(db, key));
  const authors = Array.from({ length: 1_000 }, () => randomUUID());
  const appends = SEALED_EVENTS / POSTS_PER_APPEND;
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let i = next++; i < appends; i = next++) {
        const authorId = authors[i % authors.length]!;
        await store.append(
          `feed-post-bench-${i}`,
          Array.from({ length: POSTS_PER_APPEND }, (_, j) => ({
            id: randomUUID(),
            type: 'PostPublished',
            data: { postId: randomUUID(), authorId, text: `A day at the sea, number ${j}` },
            metadata: {
              causationId: randomUUID(),
              correlationId: randomUUID(),
              actor: authorId,
              occurredAt: new Date(Date.now() - (i / appends) * DAYS * 86_400_000).toISOString(),
              schemaVersion: 1,
            },
          })),
          'no-stream',
        );
      }
    }),
  );
}
