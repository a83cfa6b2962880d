import type { RecordedEvent } from '../event-store/event-store.js';

/** Turns one version's data into the next version's (a renamed field, a new field's default). Pure. */
export type Upcaster = (data: Record<string, unknown>) => Record<string, unknown>;

/**
 * Every event type a context writes is declared here first: its schema version and which of its fields are
 * personal (spec 3: e-mail, names, phone, birth date, IP, city...). The protecting store refuses undeclared
 * types, so a personal field can never reach the log in the clear by oversight.
 */
export interface EventSchema<Data = Record<string, unknown>> {
  type: string;
  /** The version new events are written at, and the one every reader sees (older ones are upcast on read). */
  schemaVersion: number;
  /**
   * `upcasters[v]` turns version v into v + 1; one for every version below `schemaVersion`. The log is never
   * rewritten (DESIGN.md: events are immutable): projections, the CLI and the API all read through this chain.
   */
  upcasters?: Record<number, Upcaster>;
  /**
   * Whose data the personal fields are (usually the user id in the event). null: this event names no one (e.g. an
   * announcement to everyone), so nothing in it is sealed.
   */
  subject?: (data: Data) => string | null;
  personal?: readonly (keyof Data & string)[];
}

export class EventSchemas {
  private readonly byType = new Map<string, EventSchema>();

  register<Data>(...schemas: EventSchema<Data>[]): this {
    for (const schema of schemas) {
      if (this.byType.has(schema.type)) throw new Error(`event type ${schema.type} is declared twice`);
      if (schema.personal?.length && !schema.subject)
        throw new Error(`${schema.type} has personal fields but no subject`);
      for (let version = 1; version < schema.schemaVersion; version++)
        if (!schema.upcasters?.[version])
          throw new Error(`${schema.type} is at version ${schema.schemaVersion} but has no upcaster from ${version}`);
      this.byType.set(schema.type, schema as unknown as EventSchema);
    }
    return this;
  }

  get(type: string): EventSchema {
    const schema = this.byType.get(type);
    if (!schema) throw new Error(`event type ${type} is not declared in any context's event schemas`);
    return schema;
  }

  /**
   * The event as its current version: the upcasters from its stored version on, in order. An event of an unknown
   * type, or written by a newer build than this one, is left as stored.
   */
  upcast<E extends RecordedEvent>(event: E): E {
    const schema = this.byType.get(event.type);
    let version = event.metadata.schemaVersion ?? 1;
    if (!schema || version >= schema.schemaVersion || typeof event.data !== 'object' || event.data === null)
      return event;
    let data = event.data as Record<string, unknown>;
    for (; version < schema.schemaVersion; version++) data = schema.upcasters![version]!(data);
    return { ...event, data, metadata: { ...event.metadata, schemaVersion: version } };
  }
}
