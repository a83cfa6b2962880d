import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import type { LoginSession } from '@serendip/proto';
import { DATABASE, type Db } from '../../../platform/database/database.js';

export class ListSessions extends Query<LoginSession[]> {
  constructor(
    readonly userId: string,
    /** The caller's own, marked isCurrent. */
    readonly currentSessionId: string,
    readonly now = new Date(),
  ) {
    super();
  }
}

/** spec 3 "Login session": the user's active sessions, newest first. */
@QueryHandler(ListSessions)
export class ListSessionsHandler implements IQueryHandler<ListSessions> {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  async execute({ userId, currentSessionId, now }: ListSessions): Promise<LoginSession[]> {
    const rows = await this.db
      .selectFrom('auth_sessions')
      .select(['session_id', 'created_at', 'user_agent', 'ip', 'country', 'city'])
      .where('user_id', '=', userId)
      .where('ended_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map((r) => ({
      _id: r.session_id,
      createdAt: r.created_at.toISOString(),
      userAgent: r.user_agent,
      ip: r.ip,
      city: r.city,
      country: r.country,
      isCurrent: r.session_id === currentSessionId,
    }));
  }
}
