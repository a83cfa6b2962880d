import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiClient } from './api-client.js';
import { EnsureAdmin } from '../identity/commands/ensure-admin/ensure-admin.command.js';
import { SetRole } from '../identity/commands/set-role/set-role.command.js';
import { devOutbox, type Mailbox, VIDEO_USER_PASSWORD, type VideoUser, videoUser } from './video-users.js';

type Test = { app: INestApplicationContext; base: string };

/** An admin account (made if new, two-factor login on), as ADMIN_EMAIL does at start; answers its user id. */
export function ensureAdmin(app: INestApplicationContext, emailAddress: string, password: string): Promise<string> {
  return app.get(CommandBus).execute(new EnsureAdmin(emailAddress, password, new Date()));
}

/**
 * Signs `client` in as a person with two-factor login on does: the password, then the code mailed to the address
 * (`mailbox`: the app's dev outbox unless the test app sends mail over SMTP). Retries the password while the account
 * is still reaching the read model.
 */
export async function signInWithCode(
  client: ApiClient,
  emailAddress: string,
  password: string,
  mailbox: Mailbox,
): Promise<void> {
  let login = await client.call('POST', '/auth/login', { emailAddress, password });
  for (let tries = 0; login.status !== 200; tries++) {
    if (tries > 50) throw new Error(`the sign-in answered ${login.status}`);
    await new Promise((r) => setTimeout(r, 100));
    login = await client.call('POST', '/auth/login', { emailAddress, password });
  }
  const { challengeId } = login.body as { challengeId?: string };
  if (!challengeId) throw new Error('the sign-in did not ask for the mailed code (is two-factor login on?)');
  const mail = await mailbox(emailAddress, /sign-in code/);
  const code = /\b(\d{6})\b/.exec(mail)?.[1];
  const verified = await client.call('POST', '/auth/login/verify', { challengeId, code });
  if (verified.status !== 200) throw new Error(`the mailed code answered ${verified.status}`);
}

/** A new admin account, signed in through the API with its mailed code, as the dashboard would be. */
export async function signedInAdmin(test: Test, mailbox: Mailbox = devOutbox(test.base)) {
  const password = 'violet-harbour-lantern-42';
  const emailAddress = `admin-${randomUUID().slice(0, 8)}@example.com`;
  const adminId = await ensureAdmin(test.app, emailAddress, password);
  const admin = new ApiClient(test.base);
  await signInWithCode(admin, emailAddress, password, mailbox);
  return { admin, adminId, emailAddress, password };
}

/**
 * A new moderator (spec 6 Admin): a finished, confirmed user who turned two-factor login on and was given the role
 * (by `system` here; an admin's POST /dash/users/{id}/role in the product), signed in again with the mailed code.
 */
export async function signedInModerator(test: Test, mailbox: Mailbox = devOutbox(test.base)) {
  const person = await videoUser(test.base, { firstName: 'Mona' }, mailbox);
  return { moderator: await madeModerator(test, person, mailbox), moderatorId: person.user._id };
}

/** `person` made a moderator as signedInModerator does, signed in again with the mailed code: the dashboard's client. */
export async function madeModerator(
  test: Test,
  person: VideoUser,
  mailbox: Mailbox = devOutbox(test.base),
): Promise<ApiClient> {
  const on = await person.api.call('POST', '/user/enable-twofac');
  if (on.status !== 200) throw new Error(`enable-twofac answered ${on.status}`);
  const meta = { commandId: randomUUID(), correlationId: randomUUID(), actor: 'system', now: new Date() };
  await test.app.get(CommandBus).execute(new SetRole(person.user._id, 'moderator', 'made for a test', meta));
  const moderator = new ApiClient(test.base);
  await signInWithCode(moderator, person.user.emailAddress, VIDEO_USER_PASSWORD, mailbox);
  return moderator;
}
