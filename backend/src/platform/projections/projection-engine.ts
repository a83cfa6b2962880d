import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../database/schema.js';
import {
  type AllSubscription,
  comparePositions,
  type EventStore,
  type Position,
  type RecordedEvent,
  START,
} from '../event-store/event-store.js';
import { DomainError } from '../cqrs/decider.js';
import { readCheckpoint } from './checkpoints.js';
import { backoffDelay, sleep } from '../shared/backoff.js';
import { applyToProjection, type Projection } from './projection.js';

const BATCH = 500;
const FLUSH_DELAY_MS = 2;
// Short enough that read models are back within seconds of the database (a Postgres restart), long enough that a
// projection failing for good costs next to nothing.
const MAX_BACKOFF_MS = 5_000;
/** A subscription that has lived this long without failing starts its backoff afresh when it next fails. */
const HEALTHY_MS = 10_000;

interface Lane {
  projection: Projection;
  /** The last event this projection has taken into account (applied or passed over). */
  position: Position;
  live: boolean;
}

/**
 * Runs every projection from one subscription to all events. Events are applied in batches: per projection,
 * one transaction holds its rows and its checkpoint, so a crash loses or repeats nothing, and an event at or
 * before a projection's checkpoint is ignored. A projection that throws leaves the live lane (its position is
 * logged), retries on its own with backoff, catches up, and rejoins; the others never wait for it.
 */
export class ProjectionEngine {
  private lanes: Lane[] = [];
  private subscription: AllSubscription | undefined;
  private buffer: RecordedEvent[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  /** Serializes flushes and rejoins: while it runs, `position` does not move. */
  private exclusive: Promise<unknown> = Promise.resolve();
  private position: Position = START;
  private stopped = false;
  private readonly stopping = new AbortController();
  private resubscribing: Promise<void> | undefined;
  private readonly recovering = new Set<Promise<void>>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly store: EventStore,
    private readonly projections: Projection[],
    private readonly logger: Logger,
  ) {
    const names = projections.map((p) => p.name);
    if (new Set(names).size !== names.length) throw new Error(`projection names must be unique: ${names.join(', ')}`);
  }

  async start(): Promise<void> {
    this.lanes = await Promise.all(
      this.projections.map(async (projection) => ({
        projection,
        position: (await readCheckpoint(this.db, projection.name)) ?? START,
        live: true,
      })),
    );
    // The one subscription starts where the furthest-behind projection stands.
    this.position = this.lanes
      .map((l) => l.position)
      .reduce((a, b) => (comparePositions(a, b) <= 0 ? a : b), this.lanes[0]?.position ?? START);
    this.subscribe(0);
  }

  /**
   * The one subscription. If reading the log fails (Postgres restarting, an event that cannot be opened), it
   * starts again after the last position every projection has taken in, with backoff: read models lag, then
   * catch up, and never freeze silently.
   */
  private subscribe(failures: number): void {
    const since = Date.now();
    this.subscription = this.store.subscribeToAll({
      after: this.position,
      onEvent: (event) => this.receive(event),
      onError: (error) => {
        if (this.stopped) return;
        // Each outage starts from a short wait: a count carried over from last week's would keep read models
        // seconds behind for nothing.
        if (Date.now() - since > HEALTHY_MS) failures = 0;
        this.logger.error(
          { position: show(this.position), err: describe(error), failures: failures + 1 },
          'reading the log failed; resubscribing',
        );
        this.resubscribing = (async () => {
          await sleep(backoffDelay(failures, 250, MAX_BACKOFF_MS), this.stopping.signal);
          // What was buffered is flushed first, so the new subscription starts right after it.
          await this.runExclusive(() => this.flush());
          if (!this.stopped) this.subscribe(failures + 1);
        })();
      },
    });
  }

  /**
   * Resolves once the log up to `position` has been taken in: by the projections named (read your own write: the read
   * models the caller is about to read, even while one of them is retrying after a failure), or, when none are named,
   * by every live projection (tests, benchmarks, rebuilds). Past `timeoutMs` it fails with a 503 that says the change
   * is saved, so a caller never answers from a read model that has not seen it.
   */
  async caughtUpTo(position: Position, timeoutMs = 30_000, projections?: readonly string[]): Promise<void> {
    const lanes = projections?.map((name) => {
      const lane = this.lanes.find((l) => l.projection.name === name);
      if (!lane) throw new Error(`no projection named ${name}`);
      return lane;
    });
    const done = () =>
      lanes
        ? lanes.every((l) => comparePositions(l.position, position) >= 0)
        : comparePositions(this.position, position) >= 0;
    if (done()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => (this.listeners.delete(check), reject(new ReadModelBehind())), timeoutMs);
      const check = () => done() && (clearTimeout(timer), this.listeners.delete(check), resolve());
      this.listeners.add(check);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    await this.resubscribing;
    await this.subscription?.stop();
    await Promise.all(this.recovering);
    clearTimeout(this.flushTimer);
    await this.runExclusive(() => this.flush());
  }

  private async receive(event: RecordedEvent): Promise<void> {
    this.buffer.push(event);
    if (this.buffer.length >= BATCH) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
      await this.runExclusive(() => this.flush());
    } else if (!this.flushTimer) {
      // The subscription hands events over one by one; a short pause gathers a burst into one transaction.
      this.flushTimer = setTimeout(() => {
        this.flushTimer = undefined;
        void this.runExclusive(() => this.flush());
      }, FLUSH_DELAY_MS);
    }
  }

  private runExclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = this.exclusive.then(work, work);
    this.exclusive = next.catch(() => undefined);
    return next;
  }

  private async flush(): Promise<void> {
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length === 0) return;
    await Promise.all(this.lanes.filter((l) => l.live).map((lane) => this.applyLive(lane, batch)));
    this.position = batch[batch.length - 1]!.position;
    this.notify();
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private async applyLive(lane: Lane, batch: RecordedEvent[]): Promise<void> {
    try {
      await this.apply(lane, batch);
    } catch (error) {
      lane.live = false;
      this.logger.error(
        { projection: lane.projection.name, position: show(lane.position), err: describe(error) },
        'projection failed; it will retry on its own while the others go on',
      );
      const recovery = this.recover(lane).finally(() => this.recovering.delete(recovery));
      this.recovering.add(recovery);
    }
  }

  private async apply(lane: Lane, events: RecordedEvent[]): Promise<void> {
    lane.position = await applyToProjection(this.db, lane.projection, lane.position, events);
    // A projection catching up on its own moves on between flushes; whoever waits for it hears of it.
    if (!lane.live) this.notify();
  }

  private async recover(lane: Lane): Promise<void> {
    for (let attempt = 1; !this.stopped; attempt++) {
      await sleep(backoffDelay(attempt, 250, MAX_BACKOFF_MS), this.stopping.signal);
      if (this.stopped) return;
      try {
        await this.catchUp(lane);
        // Rejoin between two flushes, after a last catch-up to exactly where the live lane stands.
        await this.runExclusive(async () => {
          await this.catchUp(lane, this.position);
          lane.live = true;
        });
        this.logger.info({ projection: lane.projection.name, position: show(lane.position) }, 'projection recovered');
        return;
      } catch (error) {
        this.logger.error(
          { projection: lane.projection.name, position: show(lane.position), attempt, err: describe(error) },
          'projection still failing',
        );
      }
    }
  }

  private async catchUp(lane: Lane, until?: Position): Promise<void> {
    for (;;) {
      const events = await this.store.readAll({ after: lane.position, maxCount: BATCH });
      const wanted = until ? events.filter((e) => comparePositions(e.position, until) <= 0) : events;
      await this.apply(lane, wanted);
      if (events.length < BATCH || wanted.length < events.length) return;
    }
  }
}

/** A read model has not taken in a command it recorded within the time allowed (a 503: the change is saved). */
export class ReadModelBehind extends DomainError {
  constructor(message = READ_MODEL_BEHIND_MESSAGE) {
    super('read-model-behind', message, { kind: 'unavailable', retryAfterSeconds: 5 });
  }
}

export const READ_MODEL_BEHIND_MESSAGE =
  'Your change is saved but is taking a moment to show; please reload in a few seconds';

const show = (p: Position) => `${p.commit}/${p.prepare}`;
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
