import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE, type Db } from '../database/database.js';

/** Each node says it is alive this often... */
const BEAT_EVERY_MS = 2_000;
/** ...and its users stop counting once it has not for this long (a node that died, or lost its database). */
const ALIVE_WITHIN_MS = 6_000;
/** A node silent this long is gone: its rows are deleted by the next node that beats. */
const FORGET_AFTER_MS = 60_000;

/**
 * Who is online now across every node (spec 2 "Admin dashboard": online now = distinct signed-in users with a system
 * socket on any node). Each node keeps its own share in `online_users` (one row per user it holds a system socket
 * for, written when the user's first socket here opens and their last one closes) and beats in `online_nodes`; a
 * count takes only nodes that beat lately, so a dropped node's share expires within seconds without anyone cleaning
 * up first. A write that fails marks the share for a full rewrite at the next beat.
 */
@Injectable()
export class Presence implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(Presence.name);
  readonly nodeId = randomUUID();
  private readonly sockets = new Map<string, number>();
  private writes: Promise<void> = Promise.resolve();
  private stale = false;
  private stopped = false;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(@Inject(DATABASE) private readonly db: Db) {}

  async onApplicationBootstrap() {
    await this.beat();
    this.timer = setInterval(() => void this.beat(), BEAT_EVERY_MS);
    this.timer.unref?.();
  }

  async onApplicationShutdown() {
    this.stopped = true;
    clearInterval(this.timer);
    await this.writes;
    await this.db
      .transaction()
      .execute(async (trx) => {
        await trx.deleteFrom('online_users').where('node_id', '=', this.nodeId).execute();
        await trx.deleteFrom('online_nodes').where('node_id', '=', this.nodeId).execute();
      })
      .catch(() => undefined);
  }

  /** A signed-in user's system socket opened on this node; call the answer when it closes. */
  join(userId: string): () => void {
    const count = this.sockets.get(userId) ?? 0;
    this.sockets.set(userId, count + 1);
    if (count === 0) {
      this.write((db) =>
        db
          .insertInto('online_users')
          .values({ node_id: this.nodeId, user_id: userId })
          .onConflict((c) => c.doNothing())
          .execute(),
      );
    }
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const remaining = (this.sockets.get(userId) ?? 1) - 1;
      if (remaining > 0) {
        this.sockets.set(userId, remaining);
        return;
      }
      this.sockets.delete(userId);
      this.write((db) =>
        db.deleteFrom('online_users').where('node_id', '=', this.nodeId).where('user_id', '=', userId).execute(),
      );
    };
  }

  /** Distinct signed-in users with a system socket on any live node. */
  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('online_users as u')
      .innerJoin('online_nodes as n', 'n.node_id', 'u.node_id')
      .where('n.beat_at', '>', sql<Date>`now() - ${`${ALIVE_WITHIN_MS} milliseconds`}::interval`)
      .select(sql<string>`count(distinct u.user_id)`.as('online'))
      .executeTakeFirstOrThrow();
    return Number(row.online);
  }

  /** Writes run one after another, so a user's leave never overtakes their join. */
  private write(change: (db: Db) => Promise<unknown>) {
    this.writes = this.writes.then(async () => {
      if (this.stopped) return;
      try {
        await change(this.db);
      } catch (error) {
        this.stale = true;
        this.logger.warn(`presence not written: ${(error as Error).message}`);
      }
    });
  }

  private beat(): Promise<void> {
    this.write(async (db) => {
      await db
        .insertInto('online_nodes')
        .values({ node_id: this.nodeId, beat_at: sql<Date>`now()` })
        .onConflict((c) => c.column('node_id').doUpdateSet({ beat_at: sql<Date>`now()` }))
        .execute();
      if (this.stale) {
        this.stale = false;
        const users = [...this.sockets.keys()];
        await db.transaction().execute(async (trx) => {
          await trx.deleteFrom('online_users').where('node_id', '=', this.nodeId).execute();
          if (users.length) {
            await trx
              .insertInto('online_users')
              .values(users.map((user_id) => ({ node_id: this.nodeId, user_id })))
              .execute();
          }
        });
      }
      const gone = sql<Date>`now() - ${`${FORGET_AFTER_MS} milliseconds`}::interval`;
      await db
        .deleteFrom('online_users')
        .where('node_id', 'in', db.selectFrom('online_nodes').select('node_id').where('beat_at', '<', gone))
        .execute();
      await db.deleteFrom('online_nodes').where('beat_at', '<', gone).execute();
    });
    return this.writes;
  }
}
