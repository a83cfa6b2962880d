import { type Kysely, sql } from 'kysely';
import type { Database } from '../../database/schema.js';

/**
 * The event log as the fuzz runs watch it: a refused request or socket event must append nothing (DESIGN.md
 * "Conventions": bad input changes nothing).
 */
export function eventLog(db: Kysely<Database>) {
  const head = async (): Promise<string> => {
    const { rows } = await sql<{ head: string | null }>`select max(seq)::text as head from events`.execute(db);
    return rows[0]?.head ?? '0';
  };
  return {
    head,
    /** Once the head has stood still for a moment (at most a second): what a success set going has landed. */
    async settled(): Promise<void> {
      let last = await head();
      for (let tries = 0; tries < 40; tries++) {
        await new Promise((r) => setTimeout(r, 25));
        const now = await head();
        if (now === last) return;
        last = now;
      }
    },
    /** The types of the events appended after `after`. */
    async typesAfter(after: string): Promise<string[]> {
      const { rows } = await sql<{ type: string }>`select type from events where seq > ${after} order by seq`.execute(
        db,
      );
      return rows.map((r) => r.type);
    },
  };
}
