import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { DeviceType, OnlineUser } from '@serendip/proto';
import { sql } from 'kysely';
import { DATABASE, type Db } from '../database/database.js';

/** Each node says it is alive this often... */
const BEAT_EVERY_MS = 2_000;
/** ...and its users stop counting once it has not for this long (a node that died, or lost its database). */
const ALIVE_WITHIN_MS = 6_000;
/** A node silent this long is gone: its rows are deleted by the next node that beats. */
const FORGET_AFTER_MS = 60_000;
/**
 * Changes wait this long and are written together: a crowd connecting at once is a few multi-row writes, and a page
 * flicking between hidden and visible costs at most one write per user per period, the last state winning.
 */
const WRITE_AFTER_MS = 200;
/** Rows per statement (Postgres takes at most 65,535 parameters; a row here has five). */
const ROWS_PER_WRITE = 5_000;

export type PresenceStatus = OnlineUser['status'];

/** One system socket's say in its user's presence: call `set` when its page hides or shows, `leave` when it closes. */
export interface PresenceHandle {
  set(status: PresenceStatus): void;
  leave(): void;
}

/** A user's presence across every live node, without their name (identity's directory has it). */
export type PresentUser = Omit<OnlineUser, 'firstName'>;

interface SocketPresence {
  device: DeviceType;
  status: PresenceStatus;
  /** When it joined or last changed (ms): the latest one in sight says the user's device. */
  at: number;
}

/**
 * Who is online now across every node (spec 2 "Admin dashboard": online now = distinct signed-in users with a system
 * socket on any node; spec 4 "Presence": online, or away while every page of theirs is hidden). Each node keeps its
 * own share in `online_users` (one row per user it holds a system socket for: online if any of those sockets is in
 * sight, else away; the device of the latest one in sight) and beats in `online_nodes`; a reading takes only nodes that
 * beat lately, so a dropped node's share expires within seconds without anyone cleaning up first. Across nodes a user
 * is online if any node says so. Changes are written in batches (WRITE_AFTER_MS), each row as it is when written; a
 * write that fails marks the share for a full rewrite at the next beat.
 */
@Injectable()
export class Presence implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(Presence.name);
  readonly nodeId = randomUUID();
  /** This node's system sockets, per user. */
  private readonly sockets = new Map<string, Set<SocketPresence>>();
  /** Users whose row here no longer says what `sockets` does. */
  private readonly changed = new Set<string>();
  private writes: Promise<void> = Promise.resolve();
  private stale = false;
  private stopped = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  private pending: ReturnType<typeof setTimeout> | undefined;

  constructor(@Inject(DATABASE) private readonly db: Db) {}

  async onApplicationBootstrap() {
    await this.beat();
    this.timer = setInterval(() => void this.beat(), BEAT_EVERY_MS);
    this.timer.unref?.();
  }

  async onApplicationShutdown() {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.pending);
    await this.writes;
    await this.db
      .transaction()
      .execute(async (trx) => {
        await trx.deleteFrom('online_users').where('node_id', '=', this.nodeId).execute();
        await trx.deleteFrom('online_nodes').where('node_id', '=', this.nodeId).execute();
      })
      .catch(() => undefined);
  }

  /** A signed-in user's system socket opened on this node, in sight, from `device`. */
  join(userId: string, device: DeviceType = 'desktop'): PresenceHandle {
    const socket: SocketPresence = { device, status: 'online', at: Date.now() };
    let held = this.sockets.get(userId);
    if (!held) this.sockets.set(userId, (held = new Set()));
    held.add(socket);
    this.touch(userId);
    let left = false;
    return {
      set: (status) => {
        if (left || socket.status === status) return;
        socket.status = status;
        socket.at = Date.now();
        this.touch(userId);
      },
      leave: () => {
        if (left) return;
        left = true;
        const remaining = this.sockets.get(userId);
        remaining?.delete(socket);
        if (remaining?.size === 0) this.sockets.delete(userId);
        this.touch(userId);
      },
    };
  }

  /** Distinct signed-in users with a system socket on any live node. */
  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('online_users as u')
      .innerJoin('online_nodes as n', 'n.node_id', 'u.node_id')
      .where('n.beat_at', '>', this.aliveSince())
      .select(sql<string>`count(distinct u.user_id)`.as('online'))
      .executeTakeFirstOrThrow();
    return Number(row.online);
  }

  /**
   * Everyone online on any live node: online if any node holds a page of theirs in sight, else away; the device of their
   * latest page in sight (or, all away, of the latest one). Ordered by user id.
   */
  async users(): Promise<PresentUser[]> {
    const rows = await this.db
      .selectFrom('online_users as u')
      .innerJoin('online_nodes as n', 'n.node_id', 'u.node_id')
      .where('n.beat_at', '>', this.aliveSince())
      .select([
        'u.user_id',
        sql<boolean>`bool_or(u.status = 'online')`.as('online'),
        sql<DeviceType>`(array_agg(u.device order by u.status = 'online' desc, u.changed_at desc))[1]`.as('device'),
      ])
      .groupBy('u.user_id')
      .orderBy('u.user_id')
      .execute();
    return rows.map((row) => ({ userId: row.user_id, device: row.device, status: row.online ? 'online' : 'away' }));
  }

  private aliveSince() {
    return sql<Date>`now() - ${`${ALIVE_WITHIN_MS} milliseconds`}::interval`;
  }

  /** This node's row for a user as its sockets say now; undefined once none is left. */
  private rowOf(userId: string) {
    const held = [...(this.sockets.get(userId) ?? [])];
    if (held.length === 0) return undefined;
    const inSight = held.filter((s) => s.status === 'online');
    const latest = (inSight.length ? inSight : held).reduce((a, b) => (b.at > a.at ? b : a));
    return {
      node_id: this.nodeId,
      user_id: userId,
      status: inSight.length ? ('online' as const) : ('away' as const),
      device: latest.device,
      changed_at: new Date(latest.at),
    };
  }

  private touch(userId: string) {
    this.changed.add(userId);
    if (this.pending || this.stopped) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      const users = [...this.changed];
      this.changed.clear();
      // Read when the write runs, not now: a row is written as it is then, so a later change is never overtaken.
      this.write((db) => this.writeRows(db, users));
    }, WRITE_AFTER_MS);
    this.pending.unref?.();
  }

  private async writeRows(db: Db, users: readonly string[]) {
    const rows = [];
    const gone = [];
    for (const userId of users) {
      const row = this.rowOf(userId);
      if (row) rows.push(row);
      else gone.push(userId);
    }
    for (let i = 0; i < gone.length; i += ROWS_PER_WRITE) {
      await db
        .deleteFrom('online_users')
        .where('node_id', '=', this.nodeId)
        .where('user_id', 'in', gone.slice(i, i + ROWS_PER_WRITE))
        .execute();
    }
    for (let i = 0; i < rows.length; i += ROWS_PER_WRITE) {
      await db
        .insertInto('online_users')
        .values(rows.slice(i, i + ROWS_PER_WRITE))
        .onConflict((c) =>
          c.columns(['node_id', 'user_id']).doUpdateSet((eb) => ({
            status: eb.ref('excluded.status'),
            device: eb.ref('excluded.device'),
            changed_at: eb.ref('excluded.changed_at'),
          })),
        )
        .execute();
    }
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
        await db.transaction().execute(async (trx) => {
          await trx.deleteFrom('online_users').where('node_id', '=', this.nodeId).execute();
          await this.writeRows(trx, [...this.sockets.keys()]);
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
