import type {
  AllSubscription,
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeToAllOptions,
} from '../event-store/event-store.js';
import type { EventSchemas } from './event-schemas.js';
import { ERASED, isSealed, NOT_CACHED, type PersonalDataVault } from './personal-data-vault.js';

/**
 * The event store every context uses: seals the personal fields of each event before it is stored, and opens
 * them on the way out (or marks them erased once the subject was forgotten). The adapters below it only ever
 * see ciphertext for personal data. Every event read comes out at its type's current schema version (upcast).
 */
export class ProtectingEventStore implements EventStore {
  constructor(
    private readonly inner: EventStore,
    private readonly schemas: EventSchemas,
    private readonly vault: PersonalDataVault,
    /** Personal fields read as erased, never decrypted: for readers whose output leaves our control. */
    private readonly redact = false,
  ) {}

  /** The same log with every personal field read as erased: what integration-event mappers see. */
  redacted(): ProtectingEventStore {
    return new ProtectingEventStore(this.inner, this.schemas, this.vault, true);
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    return this.inner.append(streamId, await Promise.all(events.map((e) => this.seal(e))), expected);
  }

  async readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.openAll(await this.inner.readStream(streamId, options));
  }

  async readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.openAll(await this.inner.readAll(options));
  }

  subscribeToAll(options: SubscribeToAllOptions): AllSubscription {
    return this.inner.subscribeToAll({ ...options, onEvent: async (e) => options.onEvent(await this.open(e)) });
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private async seal(event: NewEvent): Promise<NewEvent> {
    const schema = this.schemas.get(event.type);
    if (!schema.personal?.length) return event;
    const data = { ...(event.data as Record<string, unknown>) };
    const subject = schema.subject!(data);
    if (subject === null) return event;
    for (const field of schema.personal) {
      if (data[field] !== undefined) data[field] = await this.vault.seal(subject, field, data[field]);
    }
    return { ...event, data };
  }

  /** A batch: the keys of everyone it names loaded at once, then each event opened (at once, where its keys are). */
  private async openAll(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    if (!this.redact) {
      const subjects = new Set<string>();
      for (const event of events) {
        if (typeof event.data !== 'object' || event.data === null) continue;
        for (const value of Object.values(event.data as Record<string, unknown>))
          if (isSealed(value)) subjects.add(value.$personal.subject);
      }
      if (subjects.size > 1) await this.vault.warm(subjects);
    }
    const opened = events.map((e) => {
      const unsealed = this.unsealAtOnce(e);
      return unsealed ? this.schemas.upcast(unsealed) : this.open(e);
    });
    return opened.some((e) => e instanceof Promise) ? Promise.all(opened) : (opened as RecordedEvent[]);
  }

  /** The event with its personal fields opened, if every key it needs is cached; else undefined. */
  private unsealAtOnce<E extends RecordedEvent>(event: E): E | undefined {
    if (typeof event.data !== 'object' || event.data === null) return event;
    let data: Record<string, unknown> | undefined;
    for (const [field, value] of Object.entries(event.data as Record<string, unknown>)) {
      if (!isSealed(value)) continue;
      const opened = this.redact ? ERASED : this.vault.openCached(field, value);
      if (opened === NOT_CACHED) return undefined;
      (data ??= { ...(event.data as Record<string, unknown>) })[field] = opened;
    }
    return data ? { ...event, data } : event;
  }

  /** Personal fields opened under the names they were sealed with, then the data brought to its current version. */
  private async open<E extends RecordedEvent>(event: E): Promise<E> {
    return this.schemas.upcast(await this.unseal(event));
  }

  private async unseal<E extends RecordedEvent>(event: E): Promise<E> {
    if (typeof event.data !== 'object' || event.data === null) return event;
    const entries = Object.entries(event.data as Record<string, unknown>);
    if (!entries.some(([, value]) => isSealed(value))) return event;
    const data = Object.fromEntries(
      await Promise.all(
        entries.map(async ([field, value]) => [
          field,
          !isSealed(value) ? value : this.redact ? ERASED : await this.vault.open(field, value),
        ]),
      ),
    );
    return { ...event, data };
  }
}
