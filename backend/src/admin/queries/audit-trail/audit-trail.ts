import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { type AuditTrailEntry, type AuditTrailPage, DASH_USERS_PAGE_SIZE } from '@serendip/proto';
import { UserDirectory } from '../../../identity/public/index.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import type { EventStore, RecordedEvent } from '../../../platform/event-store/event-store.js';
import { isErased } from '../../../platform/personal-data/personal-data-vault.js';
import { ProtectingEventStore } from '../../../platform/personal-data/protecting-event-store.js';
import { isUuid } from '../../../platform/shared/ids.js';
import { actorOf, fieldsOf, NEVER_SHOWN, reasonOf } from './event-view.js';

/**
 * Hidden from moderators whether or not the log seals them: what a member does not see of another on a public
 * profile (the details page's policy, UserDetails). Today they are all sealed; this keeps a new unsealed one hidden.
 */
const ADMINS_ONLY = new Set(['lastName', 'birthDate', 'city', 'emailAddress', 'phoneNumber', 'ip', 'userAgent']);
const SUMMARY_MAX = 300;
const VALUE_MAX = 80;

/**
 * A person's audit trail (spec 6 Admin): every event about them, newest first, 25 a page, from the `audit_trail`
 * index (which events, by log position) and the log itself (what they say). Admins read personal data opened with the
 * subject's key; moderators read it as 'hidden' (the events are read through the redacting store, nothing is
 * decrypted for them); a forgotten subject's reads as 'erased'.
 */
@Injectable()
export class AuditTrail {
  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    @Inject(DATABASE) private readonly db: Db,
    private readonly directory: UserDirectory,
  ) {}

  /**
   * `asOf` ("commit:prepare", from an earlier answer) reads the trail as it stood then: later events are left out, so
   * turning pages never shows an entry twice or skips one. Without it, the trail as of its newest entry now.
   */
  async page(userId: string, page: number, viewer: { admin: boolean }, asOf?: string): Promise<AuditTrailPage> {
    const anchor = asOf ?? (await this.newestOf(userId));
    const [commit, prepare] = anchor ? anchor.split(':') : [];
    const trail = this.db
      .selectFrom('audit_trail')
      .where('subject_id', '=', userId)
      .$if(anchor !== null, (q) => q.where(sql<boolean>`(commit, prepare) <= (${commit}::bigint, ${prepare}::bigint)`));
    const [rows, count, key] = await Promise.all([
      trail
        .select(['stream_id', 'revision'])
        .orderBy('commit', 'desc')
        .orderBy('prepare', 'desc')
        .offset((page - 1) * DASH_USERS_PAGE_SIZE)
        .limit(DASH_USERS_PAGE_SIZE)
        .execute(),
      trail.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
      this.db.selectFrom('subject_keys').select('forgotten_at').where('subject_id', '=', userId).executeTakeFirst(),
    ]);
    const store = viewer.admin ? this.core.store : redactedOf(this.core.store);
    const events = (
      await Promise.all(
        rows.map(
          async (r) => (await store.readStream(r.stream_id, { fromRevision: BigInt(r.revision), maxCount: 1 }))[0],
        ),
      )
    ).filter((e): e is RecordedEvent => e !== undefined);
    const names = await this.directory.firstNames(events.map((e) => e.metadata.actor));
    const mask = viewer.admin ? 'erased' : 'hidden';
    const total = Number(count.n);
    return {
      items: events.map((e) => entryOf(e, names, mask, viewer.admin)),
      page,
      totalPages: Math.max(1, Math.ceil(total / DASH_USERS_PAGE_SIZE)),
      total,
      subjectErased: !!key?.forgotten_at,
      asOf: anchor,
    };
  }

  /** The log position of the person's newest trail entry ("commit:prepare"), null while there is none. */
  private async newestOf(userId: string): Promise<string | null> {
    const top = await this.db
      .selectFrom('audit_trail')
      .select(['commit', 'prepare'])
      .where('subject_id', '=', userId)
      .orderBy('commit', 'desc')
      .orderBy('prepare', 'desc')
      .limit(1)
      .executeTakeFirst();
    return top ? `${String(top.commit)}:${String(top.prepare)}` : null;
  }
}

/** Moderators read the log with every personal field erased: fail closed if the store cannot redact. */
function redactedOf(store: EventStore): EventStore {
  if (!(store instanceof ProtectingEventStore)) throw new Error('the event store does not protect personal data');
  return store.redacted();
}

function entryOf(e: RecordedEvent, names: Map<string, string | null>, mask: string, admin: boolean): AuditTrailEntry {
  const data = fieldsOf(e);
  const reasonValue = reasonOf(data);
  return {
    id: e.id,
    type: e.type,
    at: e.metadata.occurredAt,
    actor: actorOf(e.metadata.actor, names),
    reason: isErased(reasonValue) ? mask : typeof reasonValue === 'string' && reasonValue ? clip(reasonValue) : null,
    summary: summarize(data, mask, admin),
    // Admins open the stream's whole history from an entry (the audit API, admins only).
    ...(admin ? { stream: e.streamId } : {}),
  };
}

/** "reason: spam · severity: high · details: hidden": the event's fields, ids shortened, nested data named only. */
function summarize(data: Record<string, unknown>, mask: string, admin: boolean): string {
  const parts: string[] = [];
  for (const [field, value] of Object.entries(data)) {
    if (NEVER_SHOWN.has(field) || value === null || value === undefined) continue;
    let shown: string;
    if (isErased(value) || (!admin && ADMINS_ONLY.has(field))) shown = mask;
    else if (typeof value === 'string') shown = isUuid(value) ? value.slice(0, 8) : clip(value);
    else if (typeof value === 'number' || typeof value === 'boolean') shown = String(value);
    else if (Array.isArray(value)) shown = `${value.length} item${value.length === 1 ? '' : 's'}`;
    else if (field === 'choice' && typeof (value as { suggestion?: unknown }).suggestion === 'string')
      shown = clip((value as { suggestion: string }).suggestion);
    else shown = 'yes';
    parts.push(`${field}: ${shown}`);
  }
  const line = parts.join(' · ');
  return line.length > SUMMARY_MAX ? `${line.slice(0, SUMMARY_MAX - 1)}…` : line;
}

const clip = (text: string) => (text.length > VALUE_MAX ? `${text.slice(0, VALUE_MAX - 1)}…` : text);
