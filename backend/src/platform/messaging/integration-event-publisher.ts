import type { IntegrationEvent } from '@serendip/proto';
import type { Logger } from 'pino';
import { v5 as uuidv5 } from 'uuid';
import type { Db } from '../database/database.js';
import {
  type AllSubscription,
  comparePositions,
  type EventStore,
  type Position,
  type RecordedEvent,
} from '../event-store/event-store.js';
import { readCheckpoint, writeCheckpoint } from '../projections/checkpoints.js';
import { abortable, backoffDelay, sleep } from '../shared/backoff.js';
import type { MessageBus } from './message-bus.js';
import { eventSubject } from './subjects.js';

/** What a stored event tells other contexts: usually nothing, sometimes one or more integration events. */
export type IntegrationEventMapper = (event: RecordedEvent) => IntegrationEvent[];

export interface IntegrationEventPublisherOptions {
  eventStore: EventStore;
  db: Db;
  bus: MessageBus;
  /** One mapper per context, keyed by the context's name; a mapper may only speak for its own context. */
  mappers: Record<string, IntegrationEventMapper>;
  logger: Logger;
  checkpointName?: string;
  /** The longest wait between two tries of a publish that keeps failing. */
  maxRetryDelayMs?: number;
}

export const INTEGRATION_EVENT_PUBLISHER = 'integration-event-publisher';
const INTEGRATION_ID_NAMESPACE = 'b3c1f6f2-6a47-4c1e-8f3e-2d0f6c9a7e51';
/** The checkpoint is written after this many published events, or this long after the last one. */
const CHECKPOINT_EVERY = 100;
const CHECKPOINT_AFTER_MS = 200;

/**
 * The outbox: follows the event store from its checkpoint and publishes each stored event's integration
 * events on `evt.<context>.<type>`. The write path never waits for it. The checkpoint moves only past
 * events the bus acknowledged, and a failing publish is retried (never skipped), so after a crash or a
 * NATS outage publication resumes where it stood; the repeats this may cause carry the same ids and are
 * dropped by NATS and by subscribers.
 */
export class IntegrationEventPublisher {
  private readonly name: string;
  private readonly stopping = new AbortController();
  private subscription: AllSubscription | undefined;
  private resubscribing: Promise<void> | undefined;
  private failedSubscriptions = 0;
  private published: Position | undefined;
  private saved: Position | undefined;
  private unsaved = 0;
  private saveTimer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();

  constructor(private readonly options: IntegrationEventPublisherOptions) {
    this.name = options.checkpointName ?? INTEGRATION_EVENT_PUBLISHER;
  }

  /** The position of the last stored event whose integration events the bus has taken. */
  get position(): Position | undefined {
    return this.published;
  }

  async start(): Promise<void> {
    this.published = this.saved = await readCheckpoint(this.options.db, this.name);
    this.subscribe();
  }

  /** Waits for the publish in hand (or abandons its retries), then saves the checkpoint. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.subscription?.stop();
    await this.resubscribing;
    await this.saveCheckpoint();
  }

  private get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  private subscribe(): void {
    this.subscription = this.options.eventStore.subscribeToAll({
      after: this.published,
      onEvent: (event) => this.publish(event),
      onError: (error) => this.resubscribe(error),
    });
  }

  /** The store's subscription broke (Postgres away): open it again from the last published event. */
  private resubscribe(error: unknown): void {
    if (this.stopped) return;
    this.options.logger.error(
      { err: error, position: describe(this.published) },
      'integration events: reading the event store failed; resuming',
    );
    const delay = backoffDelay(this.failedSubscriptions++, 200, this.options.maxRetryDelayMs);
    this.resubscribing = sleep(delay, this.stopping.signal).then(() => {
      if (!this.stopped) this.subscribe();
    });
  }

  private async publish(event: RecordedEvent): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        for (const integrationEvent of this.map(event)) {
          const { context, type, id } = integrationEvent;
          const publishing = this.options.bus.publish({
            subject: eventSubject(context, type),
            id,
            data: integrationEvent,
          });
          // On stop, stop waiting: the publish may still land, and its repeat carries the same id.
          await abortable(publishing, this.stopping.signal);
        }
        this.published = event.position;
        this.failedSubscriptions = 0;
        this.unsaved++;
        this.scheduleCheckpoint();
        return;
      } catch (error) {
        if (this.stopped) return;
        this.options.logger.warn(
          { err: error, eventId: event.id, type: event.type, position: describe(event.position), attempt },
          'integration events: publish failed; retrying',
        );
        await sleep(backoffDelay(attempt, 100, this.options.maxRetryDelayMs), this.stopping.signal);
      }
    }
  }

  private map(event: RecordedEvent): IntegrationEvent[] {
    const out: IntegrationEvent[] = [];
    for (const [context, mapper] of Object.entries(this.options.mappers)) {
      for (const integrationEvent of mapper(event)) {
        if (integrationEvent.context !== context) {
          throw new Error(`the ${context} mapper made an event of context ${integrationEvent.context}`);
        }
        out.push(integrationEvent);
      }
    }
    // Ids are what NATS and subscribers de-duplicate by: a second event made from the same stored event gets
    // an id of its own, derived so that a repeat still carries the same one.
    return out.map((e, i) => (i === 0 ? e : { ...e, id: uuidv5(`${event.id}:${i}`, INTEGRATION_ID_NAMESPACE) }));
  }

  private scheduleCheckpoint(): void {
    if (this.unsaved >= CHECKPOINT_EVERY) void this.saveCheckpoint();
    else this.saveTimer ??= setTimeout(() => void this.saveCheckpoint(), CHECKPOINT_AFTER_MS);
  }

  /** Saves one at a time; a failed save is only logged: the next one covers it, and a lost one means repeats. */
  private saveCheckpoint(): Promise<void> {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    this.unsaved = 0;
    this.saving = this.saving.then(async () => {
      const position = this.published;
      if (!position || (this.saved && comparePositions(position, this.saved) <= 0)) return;
      try {
        await writeCheckpoint(this.options.db, this.name, position);
        this.saved = position;
      } catch (error) {
        this.options.logger.warn(
          { err: error, position: describe(position) },
          'integration events: checkpoint not saved',
        );
        if (!this.stopped) this.saveTimer ??= setTimeout(() => void this.saveCheckpoint(), CHECKPOINT_AFTER_MS);
      }
    });
    return this.saving;
  }
}

function describe(position: Position | undefined): string {
  return position ? `${position.commit}/${position.prepare}` : 'start';
}
