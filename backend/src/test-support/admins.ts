import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiClient } from './api-client.js';
import { EnsureAdmin } from '../identity/commands/ensure-admin/ensure-admin.command.js';

/** An admin account (made if new), as ADMIN_EMAIL does at start; answers its user id. */
export function ensureAdmin(app: INestApplicationContext, emailAddress: string, password: string): Promise<string> {
  return app.get(CommandBus).execute(new EnsureAdmin(emailAddress, password, new Date()));
}

/** A new admin account, signed in through the API as the dashboard would be: its client and its user id. */
export async function signedInAdmin(test: { app: INestApplicationContext; base: string }) {
  const password = 'violet-harbour-lantern-42';
  const emailAddress = `admin-${randomUUID().slice(0, 8)}@example.com`;
  const adminId = await ensureAdmin(test.app, emailAddress, password);
  const admin = new ApiClient(test.base);
  // The account reaches the read model a moment after the command.
  for (let tries = 0; (await admin.call('POST', '/auth/login', { emailAddress, password })).status !== 200; tries++) {
    if (tries > 50) throw new Error('the admin could not sign in');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { admin, adminId };
}
