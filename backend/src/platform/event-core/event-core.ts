import type { Logger } from 'pino';
import type { Db } from '../database/database.js';
import type { EventStore } from '../event-store/event-store.js';
import { PostgresEventStore } from '../event-store/postgres/postgres-event-store.js';
import { createMessageBus } from '../messaging/create-message-bus.js';
import { IntegrationEventPublisher } from '../messaging/integration-event-publisher.js';
import type { MessageBus } from '../messaging/message-bus.js';
import { EventSchemas } from '../personal-data/event-schemas.js';
import { PersonalDataVault } from '../personal-data/personal-data-vault.js';
import { ProtectingEventStore } from '../personal-data/protecting-event-store.js';
import { ProjectionEngine } from '../projections/projection-engine.js';
import { type BoundedContext, integrationMappers } from './bounded-context.js';

export const EVENT_CORE = Symbol('EVENT_CORE');

export interface EventCoreOptions {
  db: Db;
  databaseUrl: string;
  eventStoreUrl?: string;
  natsUrl?: string;
  keyEncryptionKey: Buffer;
  /** Connections the Postgres event store may use for appends. */
  poolSize?: number;
  contexts: BoundedContext[];
  logger: Logger;
}

/**
 * Everything the contexts write and read through: the event store (personal data sealed), the projections
 * feeding the read models, and the publisher fanning integration events out on the bus.
 */
export class EventCore {
  private running = false;

  private constructor(
    /** The store every context uses; personal fields are sealed on the way in and opened on the way out. */
    readonly store: EventStore,
    readonly schemas: EventSchemas,
    readonly vault: PersonalDataVault,
    readonly projections: ProjectionEngine,
    readonly bus: MessageBus,
    readonly publisher: IntegrationEventPublisher,
    /** Wraps the subject keys; contexts derive their own keys from it (e.g. identity's token signing key). */
    readonly keyEncryptionKey: Buffer,
    /** The Postgres the core writes to (read models, plumbing tables): for clients that need their own pool. */
    readonly databaseUrl: string,
  ) {}

  static async create(options: EventCoreOptions): Promise<EventCore> {
    const { db, contexts, logger } = options;
    const log = logger.child({ component: 'event-core' });
    let adapter: EventStore;
    if (options.eventStoreUrl) {
      // Loaded only when asked for: its gRPC client takes a third of a second to load, which every command would pay.
      const { EsdbEventStore } = await import('../event-store/eventstoredb/esdb-event-store.js');
      adapter = await EsdbEventStore.connect(options.eventStoreUrl);
    } else {
      const postgres = new PostgresEventStore(db, {
        connectionString: options.databaseUrl,
        logger: log,
        poolSize: options.poolSize,
      });
      await postgres.checkTransactionIds().catch(async (error: unknown) => {
        await postgres.close();
        throw error;
      });
      adapter = postgres;
    }
    const schemas = new EventSchemas();
    for (const context of contexts) schemas.register(...context.eventSchemas);
    const vault = new PersonalDataVault(db, options.keyEncryptionKey);
    const store = new ProtectingEventStore(adapter, schemas, vault);
    const projections = new ProjectionEngine(
      db,
      store,
      contexts.flatMap((c) => c.projections),
      log,
    );
    const bus = createMessageBus({ natsUrl: options.natsUrl, logger: log });
    const mappers = integrationMappers(contexts);
    // Mappers see personal fields as erased: NATS keeps messages for days and cannot forget a person.
    const publisher = new IntegrationEventPublisher({ eventStore: store.redacted(), db, bus, mappers, logger: log });
    log.info(
      { eventStore: options.eventStoreUrl ? 'eventstoredb' : 'postgres', bus: options.natsUrl ? 'nats' : 'in-process' },
      'event core ready',
    );
    return new EventCore(
      store,
      schemas,
      vault,
      projections,
      bus,
      publisher,
      options.keyEncryptionKey,
      options.databaseUrl,
    );
  }

  async start(): Promise<void> {
    await this.projections.start();
    await this.publisher.start();
    this.running = true;
  }

  /** Readers first (they finish what they hold), then the connections they read through. */
  async stop(): Promise<void> {
    if (this.running) {
      await this.projections.stop();
      await this.publisher.stop();
    }
    this.running = false;
    await this.bus.close();
    await this.store.close();
  }
}
