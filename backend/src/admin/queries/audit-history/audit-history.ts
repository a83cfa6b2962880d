import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import type { AuditEvent, AuditStreamHistory, AuditUserHistory } from '@serendip/proto';
import { UserDirectory } from '../../../identity/public/index.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import type { RecordedEvent } from '../../../platform/event-store/event-store.js';
import { isErased } from '../../../platform/personal-data/personal-data-vault.js';
import { actorOf, fieldsOf, reasonOf, shownData } from '../audit-trail/event-view.js';

export interface PageRequest {
  /** From an earlier answer's `nextCursor`: where the last page ended. */
  cursor?: string;
  limit: number;
}

/**
 * The admins' audit API (spec 6 Admin: admins audit complete histories): a person's events from the `audit_trail`
 * index (the same one as the dashboard's trail), or one stream's, read from the log itself through the protecting store,
 * so personal fields are opened with their subject's key and a forgotten subject's read as erased. Admins only: the
 * controller's guard sees to it.
 */
@Injectable()
export class AuditHistory {
  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    @Inject(DATABASE) private readonly db: Db,
    private readonly directory: UserDirectory,
  ) {}

  /**
   * Newest first, by log position. The cursor is the position of the page's last event ("commit:prepare"): the next
   * page is what lies below it, so events written meanwhile (the access record of each read among them) land above
   * the first page and never shift, repeat or hide one of the next.
   */
  async ofUser(userId: string, page: PageRequest): Promise<AuditUserHistory> {
    const [commit, prepare] = page.cursor ? page.cursor.split(':') : [];
    const [rows, key] = await Promise.all([
      this.db
        .selectFrom('audit_trail')
        .select(['stream_id', 'revision', 'commit', 'prepare'])
        .where('subject_id', '=', userId)
        .$if(page.cursor !== undefined, (q) =>
          q.where(sql<boolean>`(commit, prepare) < (${commit}::bigint, ${prepare}::bigint)`),
        )
        .orderBy('commit', 'desc')
        .orderBy('prepare', 'desc')
        .limit(page.limit + 1)
        .execute(),
      this.db.selectFrom('subject_keys').select('forgotten_at').where('subject_id', '=', userId).executeTakeFirst(),
    ]);
    const shown = rows.slice(0, page.limit);
    const events = await Promise.all(
      shown.map(
        async (r) =>
          (await this.core.store.readStream(r.stream_id, { fromRevision: BigInt(r.revision), maxCount: 1 }))[0],
      ),
    );
    const last = shown.at(-1);
    return {
      items: await this.view(events.filter((e): e is RecordedEvent => e !== undefined)),
      nextCursor: rows.length > page.limit && last ? `${String(last.commit)}:${String(last.prepare)}` : null,
      subjectErased: !!key?.forgotten_at,
    };
  }

  /**
   * Oldest first, by revision; the cursor is the revision of the page's last event. Undefined for a stream that does
   * not exist.
   */
  async ofStream(stream: string, page: PageRequest): Promise<AuditStreamHistory | undefined> {
    const from = page.cursor === undefined ? 0n : BigInt(page.cursor) + 1n;
    const events = await this.core.store.readStream(stream, { fromRevision: from, maxCount: page.limit + 1 });
    if (events.length === 0 && !(await this.exists(stream))) return undefined;
    const shown = events.slice(0, page.limit);
    const last = shown.at(-1);
    return {
      stream,
      items: await this.view(shown),
      nextCursor: events.length > page.limit && last ? String(last.revision) : null,
    };
  }

  /**
   * Whom a stream is about, as far as the index knows: the people every one of its events is about (an account's
   * owner, a report's two parties, a call's two sides, a staff member for their own record of looks), not a colleague
   * who acted once on it. None for a stream about nobody (a server's starts and stops).
   */
  async peopleOf(stream: string): Promise<string[]> {
    const rows = await sql<{ subject_id: string }>`
      select subject_id from audit_trail where stream_id = ${stream}
      group by subject_id
      having count(*) = (select count(distinct revision) from audit_trail where stream_id = ${stream})
      order by subject_id`.execute(this.db);
    return rows.rows.map((r) => r.subject_id);
  }

  private async exists(stream: string): Promise<boolean> {
    return (await this.core.store.readStream(stream, { maxCount: 1 })).length > 0;
  }

  private async view(events: RecordedEvent[]): Promise<AuditEvent[]> {
    const names = await this.directory.firstNames(events.map((e) => e.metadata.actor));
    return events.map((e) => {
      const data = fieldsOf(e);
      const reason = reasonOf(data);
      return {
        id: e.id,
        type: e.type,
        stream: e.streamId,
        revision: Number(e.revision),
        position: `${e.position.commit}:${e.position.prepare}`,
        at: e.metadata.occurredAt,
        actor: actorOf(e.metadata.actor, names),
        reason: isErased(reason) ? 'erased' : typeof reason === 'string' && reason ? reason : null,
        data: shownData(data) as Record<string, unknown>,
      };
    });
  }
}
