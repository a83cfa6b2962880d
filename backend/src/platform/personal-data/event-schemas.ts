/**
 * Every event type a context writes is declared here first: its schema version and which of its fields are
 * personal (spec 3: e-mail, names, phone, birth date, IP, city...). The protecting store refuses undeclared
 * types, so a personal field can never reach the log in the clear by oversight.
 */
export interface EventSchema<Data = Record<string, unknown>> {
  type: string;
  schemaVersion: number;
  /** Whose data the personal fields are (usually the user id in the event). */
  subject?: (data: Data) => string;
  personal?: readonly (keyof Data & string)[];
}

export class EventSchemas {
  private readonly byType = new Map<string, EventSchema>();

  register<Data>(...schemas: EventSchema<Data>[]): this {
    for (const schema of schemas) {
      if (this.byType.has(schema.type)) throw new Error(`event type ${schema.type} is declared twice`);
      if (schema.personal?.length && !schema.subject)
        throw new Error(`${schema.type} has personal fields but no subject`);
      this.byType.set(schema.type, schema as unknown as EventSchema);
    }
    return this;
  }

  get(type: string): EventSchema {
    const schema = this.byType.get(type);
    if (!schema) throw new Error(`event type ${type} is not declared in any context's event schemas`);
    return schema;
  }
}
