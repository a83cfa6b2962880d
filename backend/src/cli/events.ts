import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import cliProgress from 'cli-progress';
import { sql } from 'kysely';
import { type PersonalDataRead } from '../admin/domain/personal-data-read.events.js';
import { staffAccessStream } from '../admin/domain/staff-access.events.js';
import { loadConfig } from '../config/config.js';
import { contexts } from '../contexts.js';
import { emailKey } from '../identity/accounts/email-address.js';
import { account } from '../identity/domain/account.decider.js';
import { type AccountEvent, accountStream } from '../identity/domain/account.events.js';
import type { Db } from '../platform/database/database.js';
import { aggregateOf } from '../platform/event-core/bounded-context.js';
import type { EventCore } from '../platform/event-core/event-core.js';
import {
  comparePositions,
  type Position,
  type ReadAllOptions,
  type RecordedEvent,
} from '../platform/event-store/event-store.js';
import { copyEventsToCsvFiles, visibleHorizon } from '../platform/event-store/postgres/copy-events.js';
import { countStreams } from '../platform/event-store/postgres/stream-counts.js';
import { runCli, withEventCore } from './cli-support.js';
import {
  EVENTS_USAGE,
  type EventsCommand,
  eventLine,
  formatPosition,
  matches,
  parseEventsCommand,
  shownData,
  stateJson,
  UsageError,
  upTo,
} from './events/event-query.js';
import type { ParquetExport } from './events/parquet-export.js';

const BATCH = 5_000;
/**
 * The export reads the types it cannot copy straight out (sealed or upcast: a few percent of the log) in big batches:
 * each read of a few types walks the log's order from where the last stopped.
 */
const RARE_BATCH = 50_000;

/**
 * `npm run events -- <verb>`: the event log for analysts and auditors, on either event store. `ls [prefix]` lists
 * streams with their event counts; `cat <stream>`, `all` and `follow` (live, until Ctrl+C) print events as NDJSON
 * (position, stream, revision, type, version, context, time, actor, data), filtered by type, context, actor, time and
 * position; `state <stream> --at` folds a stream with its aggregate's own decider up to a moment (time travel);
 * `export` writes Parquet. Personal fields are pseudonyms (EVENTS_PSEUDONYM_KEY keeps them stable across runs;
 * without it, within one run) unless an admin asks for them with --with-personal-data, which is recorded. A closed
 * pipe (`| head`) ends it quietly.
 */
runCli('events', async () => {
  if (['--help', '-h', 'help'].includes(process.argv[2] ?? '')) {
    process.stdout.write(`${EVENTS_USAGE}\n`);
    return;
  }
  const contextOf = new Map(contexts.flatMap((c) => c.eventSchemas.map((s) => [s.type, c.name] as const)));
  const command = parseEventsCommand(process.argv.slice(2), {
    types: new Set(contextOf.keys()),
    contexts: new Set(contexts.map((c) => c.name)),
  });
  if (command.personalDataFor) {
    // Opening sealed fields takes the real key: without it, this would make a new one and open nothing.
    const config = loadConfig();
    if (!config.personalDataKey && !existsSync(path.join(config.dataDir, 'personal-data.key')))
      throw new UsageError('--with-personal-data needs the personal-data key: set PERSONAL_DATA_KEY');
  }
  const pseudonymKey = process.env.EVENTS_PSEUDONYM_KEY
    ? Buffer.from(process.env.EVENTS_PSEUDONYM_KEY, 'utf8')
    : randomBytes(32);
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  const write = (line: string) =>
    new Promise<void>((resolve) =>
      process.stdout.write(`${line}\n`) ? resolve() : process.stdout.once('drain', resolve),
    );

  await withEventCore(async ({ config, db, core }) => {
    if (command.verb === 'ls') {
      // On Postgres the database counts them; EventStoreDB has no such query, so its log is walked.
      let counts: Map<string, number>;
      if (config.eventStoreUrl) {
        counts = new Map();
        for await (const batch of batches(core.store))
          for (const event of batch)
            if (event.streamId.startsWith(command.prefix))
              counts.set(event.streamId, (counts.get(event.streamId) ?? 0) + 1);
      } else counts = await countStreams(db, command.prefix);
      const byName = new Intl.Collator().compare;
      const listed = [...counts].sort(([a], [b]) => byName(a, b)).map(([stream, n]) => `${stream}\t${n}`);
      // A thousand lines a write: hundreds of thousands of streams list in a second.
      for (let i = 0; i < listed.length; i += 1_000) await write(listed.slice(i, i + 1_000).join('\n'));
      return;
    }
    const key = command.personalDataFor ? await recordPersonalDataRead(db, core, command) : pseudonymKey;
    const line = (event: RecordedEvent) =>
      eventLine(event, contextOf.get(event.type) ?? 'unknown', core.schemas.get(event.type), key, pseudonymKey);

    if (command.verb === 'state') {
      const aggregate = aggregateOf(contexts, command.stream);
      if (!aggregate)
        throw new UsageError(
          `${command.stream}: no aggregate owns streams named like this; state knows ` +
            contexts.flatMap((c) => (c.aggregates ?? []).map((a) => `${a.streamPrefix}…`)).join(', '),
        );
      const stream = await core.store.readStream(command.stream);
      if (stream.length === 0)
        throw new UsageError(`no stream named ${command.stream} (npm run events -- ls lists them)`);
      const lastRevision = stream[stream.length - 1]!.revision;
      if (command.at && 'revision' in command.at && command.at.revision > lastRevision)
        throw new UsageError(
          `${command.stream} has revisions 0 to ${lastRevision}; there is no ${command.at.revision}`,
        );
      const folded = upTo(stream, command.at);
      const last = folded[folded.length - 1];
      let state: unknown;
      try {
        state = aggregate.fold(
          folded.map((e) => ({ type: e.type, data: shownData(e.data, core.schemas.get(e.type), key, pseudonymKey) })),
        );
      } catch (error) {
        throw new Error(
          `could not fold ${command.stream}${key ? ' with its personal fields as pseudonyms' : ''}: ${(error as Error).message}`,
        );
      }
      // Before its first event the stream's aggregate did not exist yet: its decider's initial state, no revision.
      await write(
        stateJson({
          stream: command.stream,
          revision: last ? Number(last.revision) : null,
          position: last ? formatPosition(last.position) : null,
          time: last?.metadata.occurredAt ?? null,
          state,
        }),
      );
      return;
    }

    const { filters } = command;
    if (command.verb === 'follow') {
      // Live: each event as it commits, in log order, after where it started (or --from-position).
      let last = filters.after;
      let writing = Promise.resolve();
      const subscription = core.store.subscribeToAll({
        after: filters.after,
        onEvent: async (event) => {
          if (matches(event, contextOf.get(event.type) ?? 'unknown', filters)) await (writing = write(line(event)));
          last = event.position;
        },
        onError: (error) => {
          process.stderr.write(`events failed: ${(error as Error).message}\n`);
          process.exit(1);
        },
      });
      await new Promise<void>((resolve) => {
        for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
      });
      await subscription.stop();
      await writing;
      process.stderr.write(
        last
          ? `stopped; go on with: npm run events -- follow --from-position ${formatPosition(last)}\n`
          : 'stopped before any event\n',
      );
      return;
    }

    if (command.verb === 'export') {
      const wanted = [...contextOf].filter(
        ([type, context]) =>
          (!filters.types || filters.types.has(type)) && (!filters.contexts || filters.contexts.has(context)),
      );
      // On Postgres, the types with nothing sealed and nothing to upcast are copied straight out of the log (COPY):
      // what is stored is what every reader sees. The rest go through the store, which opens and upcasts them.
      const postgres = !config.eventStoreUrl;
      const isPlain = (type: string) => {
        const schema = core.schemas.get(type);
        return postgres && !schema.personal?.length && schema.schemaVersion === 1;
      };
      const plain = wanted.map(([type]) => type).filter(isPlain);
      const rest = wanted.map(([type]) => type).filter((type) => !isPlain(type));
      // What the bar counts up to: the events of the wanted types (the other filters only take some away). Counted
      // while the export starts: the bar's length can wait, the export should not.
      const counting = postgres
        ? sql<{ n: string }>`select count(*) as n from events where type = any(${wanted.map(([type]) => type)})`
            .execute(db)
            .then(({ rows }) => Number(rows[0]!.n))
        : Promise.resolve(0);
      counting.catch(() => undefined); // awaited below
      // One cut for both: what had committed when the export began. DuckDB takes a moment to load (only the export
      // pays for it): loaded meanwhile.
      const [before, { ParquetExport }] = await Promise.all([
        postgres ? visibleHorizon(core.databaseUrl) : undefined,
        import('./events/parquet-export.js'),
      ]);
      const started = performance.now();
      const rate = (n: number) => Math.round(n / Math.max((performance.now() - started) / 1000, 0.001));
      const bar = new cliProgress.SingleBar(
        { format: 'export [{bar}] {percentage}% | {value}/{total} events | {rate} events/s', hideCursor: true },
        cliProgress.Presets.shades_classic,
      );
      let files: string[] = [];
      // Ctrl+C (or a kill) mid-export: nothing half-written stays, in the output's place or in the scratch folder.
      let scratch: string | undefined;
      let parquet: ParquetExport | undefined;
      let stopping = false;
      const interrupted = async (signal: NodeJS.Signals) => {
        stopping = true;
        bar.stop();
        const removeAll = () =>
          Promise.allSettled([
            // By its name, not through the export: it may be on its way when the signal comes.
            rm(ParquetExport.partialOf(command.out), { recursive: true, force: true }),
            scratch && rm(scratch, { recursive: true, force: true }),
          ]);
        await removeAll();
        // Twice: a folder the export was making as the signal came may have appeared since.
        await removeAll();
        process.stderr.write(`export stopped (${signal}); nothing was written\n`);
        process.exit(130);
      };
      const onSignal = (signal: NodeJS.Signals) => void interrupted(signal);
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        scratch = await mkdtemp(path.join(tmpdir(), 'serendip-export-'));
        // The copy waits on Postgres while this process reads the rest: both at once.
        const shares = before !== undefined && plain.length ? Math.max(2, availableParallelism()) : 0;
        const writing = await ParquetExport.open(command.out, scratch, contextOf, shares);
        parquet = writing;
        const copyStopped = new AbortController();
        let copying: Promise<void> | undefined;
        try {
          copying =
            before !== undefined && plain.length
              ? copyEventsToCsvFiles(
                  core.databaseUrl,
                  { ...filters, types: plain, before },
                  writing.csvFiles,
                  copyStopped.signal,
                ).then((copied) => {
                  for (const rows of copied) writing.addCopied(rows);
                  bar.update(writing.count, { rate: rate(writing.count) });
                })
              : Promise.resolve();
          let copyFailed = false;
          copying.catch(() => (copyFailed = true)); // awaited below
          bar.start(await counting, writing.count, { rate: 0 });
          if (rest.length)
            reading: for await (const batch of batches(core.store, filters.after, rest, RARE_BATCH)) {
              // The copy failed: the export will, so the rest is not read for nothing.
              if (copyFailed) break;
              for (const event of batch) {
                if (before !== undefined && event.position.commit >= before) break reading;
                if (!matches(event, contextOf.get(event.type) ?? 'unknown', filters)) continue;
                writing.append({
                  position: event.position,
                  stream: event.streamId,
                  revision: event.revision,
                  type: event.type,
                  version: event.metadata.schemaVersion,
                  time: event.metadata.occurredAt,
                  actor: event.metadata.actor,
                  data: JSON.stringify(shownData(event.data, core.schemas.get(event.type), key, pseudonymKey)),
                });
              }
              bar.update(writing.count, { rate: rate(writing.count) });
            }
          await copying;
          bar.setTotal(writing.count);
          bar.update(writing.count, { rate: rate(writing.count) });
          bar.stop();
          files = await writing.finish();
        } catch (error) {
          copyStopped.abort();
          await copying?.catch(() => undefined); // its worker gone: nothing of it lands after the clean-up
          bar.stop();
          // What failed is what the signal's handler removed: it says so and ends the process.
          if (stopping) await new Promise(() => undefined);
          await writing.abandon();
          throw error;
        }
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        if (scratch) await rm(scratch, { recursive: true, force: true });
      }
      const count = parquet.count;
      const seconds = (performance.now() - started) / 1000;
      process.stderr.write(
        `exported ${count} events in ${seconds.toFixed(2)} s (${rate(count)} events/s) to ` +
          `${path.resolve(command.out)}: ${files.length} Parquet file${files.length === 1 ? '' : 's'}, by day and context\n`,
      );
      return;
    }

    const pages =
      command.verb === 'cat' ? [await core.store.readStream(command.stream)] : batches(core.store, filters.after);
    for await (const page of pages) {
      if (command.verb === 'cat' && page.length === 0)
        throw new UsageError(`no stream named ${command.stream} (npm run events -- ls lists them)`);
      const lines: string[] = [];
      for (const event of page) {
        // A resumed `cat`: only what came after that position.
        if (command.verb === 'cat' && filters.after && comparePositions(event.position, filters.after) <= 0) continue;
        if (matches(event, contextOf.get(event.type) ?? 'unknown', filters)) lines.push(line(event));
      }
      // One write a batch: a write a line would cost more than everything else here.
      if (lines.length) await write(lines.join('\n'));
    }
  });
});

/**
 * `--with-personal-data --as <e-mail>`: only for an account whose own history (its decider's state, not a read model)
 * says it is an admin, and who is not under a ban (the bans read model, as the dashboard's guard asks); the read is
 * recorded (PersonalDataRead, in that admin's stream) before anything is printed.
 * Returns null: no pseudonym key, fields in the clear.
 */
async function recordPersonalDataRead(
  db: Db,
  core: EventCore,
  command: EventsCommand & { personalDataFor?: string },
): Promise<null> {
  const address = command.personalDataFor!;
  const owner = await db
    .selectFrom('account_emails')
    .select('user_id')
    .where('email_lower', '=', emailKey(address))
    .executeTakeFirst();
  const history = owner
    ? (await core.store.readStream(accountStream(owner.user_id))).map(
        (e) => ({ type: e.type, data: e.data }) as AccountEvent,
      )
    : [];
  const state = history.reduce(account.evolve, account.initialState);
  if (!owner || state.status !== 'registered' || state.role !== 'admin')
    throw new UsageError(`--as: ${address} is not an admin's address; personal data is for admins only`);
  const now = new Date();
  // Loaded only here: it brings identity's public side (Nest and all), a second and more of start-up for every verb.
  const { BanStanding } = await import('../moderation/queries/standing/ban-standing.js');
  // A banned admin is kept off the dashboard (AuthGuard's 403, spec 4 "Ban"): not let in by the back door either.
  if (await new BanStanding(db).isRestricted(owner.user_id, now))
    throw new UsageError(`--as: ${address} is banned; personal data is for admins in good standing only`);
  const event: PersonalDataRead = {
    type: 'PersonalDataRead',
    data: {
      staffId: owner.user_id,
      verb: command.verb,
      arguments: withoutAddress(process.argv.slice(2)),
      at: now.toISOString(),
    },
  };
  const id = randomUUID();
  await core.store.append(
    staffAccessStream(owner.user_id),
    [
      {
        id,
        ...event,
        metadata: {
          causationId: id,
          correlationId: id,
          actor: owner.user_id,
          occurredAt: now.toISOString(),
          schemaVersion: core.schemas.get(event.type).schemaVersion,
        },
      },
    ],
    'any',
  );
  return null;
}

/** The command line as recorded: the admin's address left out (their id says who, and an address is personal data). */
function withoutAddress(argv: readonly string[]): string {
  return argv.filter((arg, i) => arg !== '--as' && argv[i - 1] !== '--as').join(' ');
}

/**
 * The log in order (only `types`, if given), a batch at a time; the next batch is already being read while the
 * caller works on this one.
 */
async function* batches(
  store: { readAll(options: ReadAllOptions): Promise<RecordedEvent[]> },
  after?: Position,
  types?: readonly string[],
  size = BATCH,
): AsyncGenerator<RecordedEvent[]> {
  let next = store.readAll({ after, maxCount: size, types });
  for (;;) {
    const batch = await next;
    if (batch.length === size) {
      next = store.readAll({ after: batch[batch.length - 1]!.position, maxCount: size, types });
      next.catch(() => undefined); // awaited (and thrown) on the next turn, unless the caller stopped reading
    }
    yield batch;
    if (batch.length < size) return;
  }
}
