import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { EnsureAdmin } from '../identity/commands/ensure-admin/ensure-admin.command.js';

/** An admin account (made if new), as ADMIN_EMAIL does at start; answers its user id. */
export function ensureAdmin(app: INestApplicationContext, emailAddress: string, password: string): Promise<string> {
  return app.get(CommandBus).execute(new EnsureAdmin(emailAddress, password, new Date()));
}
