import { randomUUID } from 'node:crypto';
import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DATABASE, type Db } from '../../platform/database/database.js';
import type { ServerLogTable } from '../../platform/database/schema.js';

/**
 * Writes operational entries (starts, stops, later failures) that admins read on the System Log page.
 * A start and a stop per process let an operator see restarts and crashes (a start without a stop).
 */
@Injectable()
export class ServerLogService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly instance = randomUUID();

  constructor(@Inject(DATABASE) private readonly db: Db) {}

  async record(level: ServerLogTable['level'], message: string): Promise<void> {
    await this.db.insertInto('server_log').values({ level, message, instance: this.instance }).execute();
  }

  async onApplicationBootstrap() {
    await this.record('info', `Backend started (pid ${process.pid}, node ${process.version})`);
  }

  async beforeApplicationShutdown(signal?: string) {
    await this.record('info', `Backend stopping${signal ? ` on ${signal}` : ''}`).catch(() => undefined);
  }
}
