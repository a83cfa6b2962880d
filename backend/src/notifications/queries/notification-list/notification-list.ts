import { Inject, Injectable } from '@nestjs/common';
import { NOTIFICATION_PAGE_SIZE, type NotificationKind, type NotificationView } from '@serendip/proto';
import { type Selectable, sql } from 'kysely';
import { UserDirectory } from '../../../identity/public/index.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import type { NotificationsTable } from '../../../platform/database/schema.js';
import { isUuid } from '../../../platform/shared/ids.js';
import type { ReadTarget } from '../../domain/inbox.decider.js';

export interface NotificationPage {
  items: NotificationView[];
  total: number;
  totalPages: number;
  unread: number;
}

type Row = Selectable<NotificationsTable> & { read: boolean };

/**
 * A user's notifications (spec 4 "Notifications"): their own, and the announcements to everyone sent since they
 * joined (a newcomer does not start with a backlog of old news, nor with last year's forced-open overlays). Read state
 * from the rows written when they read one and their latest "mark all read": nothing per user is written when an
 * announcement goes out.
 */
@Injectable()
export class NotificationList {
  constructor(
    @Inject(DATABASE) private readonly db: Db,
    private readonly users: UserDirectory,
  ) {}

  /** Newest first, NOTIFICATION_PAGE_SIZE a page, with the totals and the unread count. */
  async page(userId: string, page: number): Promise<NotificationPage> {
    const joined = await this.joinedAt(userId);
    if (!joined) return { items: [], total: 0, totalPages: 1, unread: 0 };
    const [counts, rows] = await Promise.all([
      this.visible(userId, joined)
        .select((eb) => [
          eb.fn.countAll<string>().as('total'),
          sql<string>`count(*) filter (where not ${READ})`.as('unread'),
        ])
        .executeTakeFirstOrThrow(),
      this.visible(userId, joined)
        .selectAll('n')
        .select(READ.as('read'))
        .orderBy('n.sent_at', 'desc')
        .orderBy('n.notification_id', 'desc')
        .limit(NOTIFICATION_PAGE_SIZE)
        .offset((page - 1) * NOTIFICATION_PAGE_SIZE)
        .execute(),
    ]);
    const total = Number(counts.total);
    return {
      items: rows.map(view),
      total,
      totalPages: Math.max(1, Math.ceil(total / NOTIFICATION_PAGE_SIZE)),
      unread: Number(counts.unread),
    };
  }

  /** The forced-open ones not yet confirmed, oldest first (the overlay shows them one after another). */
  async forceOpen(userId: string): Promise<NotificationView[]> {
    const joined = await this.joinedAt(userId);
    if (!joined) return [];
    const rows = await this.visible(userId, joined)
      .selectAll('n')
      .select(READ.as('read'))
      .where('n.force_open', '=', true)
      .where('r.notification_id', 'is', null)
      .orderBy('n.sent_at', 'asc')
      .orderBy('n.notification_id', 'asc')
      .execute();
    return rows.map(view);
  }

  /** A notification this user may see, as the read commands need it; undefined for anyone else's (a 404). */
  async target(userId: string, notificationId: string): Promise<ReadTarget | undefined> {
    if (!isUuid(notificationId)) return undefined;
    const joined = await this.joinedAt(userId);
    if (!joined) return undefined;
    const row = await this.visible(userId, joined)
      .select(['n.notification_id', 'n.force_open', 'n.sent_at'])
      .where('n.notification_id', '=', notificationId)
      .executeTakeFirst();
    return row && { notificationId: row.notification_id, forceOpen: row.force_open, sentAt: iso(row.sent_at) };
  }

  /**
   * Whether "mark all read" would cover anything now: a visible notification, not forced-open, still unread. Without
   * one a repeat records nothing, so the inbox stream grows with what was sent to the user, not with their clicks.
   */
  async anyUnreadToMark(userId: string): Promise<boolean> {
    const joined = await this.joinedAt(userId);
    if (!joined) return false;
    const row = await this.visible(userId, joined)
      .select('n.notification_id')
      .where('n.force_open', '=', false)
      .where(sql<boolean>`not ${READ}`)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  private joinedAt(userId: string) {
    return this.users.registeredAt(userId);
  }

  /** The user's own and everyone's since `joined`, each with this user's read row and "mark all read" moment. */
  private visible(userId: string, joined: Date) {
    return this.db
      .selectFrom('notifications as n')
      .leftJoin('notification_reads as r', (join) =>
        join.onRef('r.notification_id', '=', 'n.notification_id').on('r.user_id', '=', userId),
      )
      .leftJoin('notification_read_marks as m', (join) => join.on('m.user_id', '=', userId))
      .where((eb) =>
        eb.or([
          eb('n.recipient_id', '=', userId),
          eb.and([eb('n.recipient_id', 'is', null), eb('n.sent_at', '>=', joined)]),
        ]),
      );
  }
}

/** Read: a read row, or (not forced-open) sent no later than the last "mark all read". */
const READ = sql<boolean>`(r.notification_id is not null or (not n.force_open and n.sent_at <= coalesce(m.all_read_at, '-infinity')))`;

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

function view(row: Row): NotificationView {
  return {
    _id: row.notification_id,
    kind: row.kind as NotificationKind,
    title: row.title,
    description: row.description,
    ...(row.admin_announcement ? { AdminAnnouncement: row.admin_announcement } : {}),
    forceOpen: row.force_open,
    read: Boolean(row.read),
    createdAt: iso(row.sent_at),
    ...(row.link ? { link: row.link } : {}),
    ...(row.details ? { details: row.details } : {}),
  };
}
