import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeDecider } from '../platform/cqrs/execute-decider.js';
import { startTestApp, type TestApp } from '../test-support/test-app.js';
import { account } from './domain/account.decider.js';
import { accountStream } from './domain/account.events.js';
import { PasswordHasher } from './passwords/password-hasher.js';
import { usersProjection } from './projections/users.projection.js';
import { rebuildProjection } from '../platform/projections/rebuild-projection.js';

describe('identity accounts on the event core', () => {
  let test: TestApp;
  const hasher = new PasswordHasher();
  const meta = () => ({
    commandId: randomUUID(),
    correlationId: randomUUID(),
    actor: 'test',
    now: new Date('2026-11-22T12:00:00Z'),
  });

  beforeAll(async () => {
    test = await startTestApp();
  });
  afterAll(async () => test?.close());

  async function registerAndComplete(userId: string) {
    const passwordHash = await hasher.hash('violet-harbour-lantern-42');
    const stream = accountStream(userId);
    await executeDecider(
      test.core,
      stream,
      account,
      { type: 'Register', userId, emailAddress: 'Grace.Hopper@example.com', passwordHash },
      meta(),
    );
    await executeDecider(test.core, stream, account, { type: 'VerifyEmail' }, meta());
    const done = await executeDecider(
      test.core,
      stream,
      account,
      {
        type: 'CompleteProfile',
        firstName: 'Grace',
        lastName: 'Hopper',
        username: 'amazing_grace',
        gender: 'female',
        birthDate: '1990-12-09',
      },
      meta(),
    );
    await test.core.projections.caughtUpTo(done.position!);
  }

  it('projects a registered, verified, completed account into the users read model', async () => {
    const userId = randomUUID();
    await registerAndComplete(userId);
    const row = await test.db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      email_address: 'Grace.Hopper@example.com',
      email_verified: true,
      first_name: 'Grace',
      last_name: 'Hopper',
      username: 'amazing_grace',
      gender: 'female',
      is_finished_steps: true,
      is_admin: false,
    });
  });

  it('never writes the e-mail, names, birth date, username or password hash in clear in the events table', async () => {
    const userId = randomUUID();
    await registerAndComplete(userId);
    const { rows } = await sql<{
      text: string;
    }>`select data::text || metadata::text as text from events where stream_id = ${accountStream(userId)}`.execute(
      test.db,
    );
    expect(rows.length).toBe(3);
    for (const secret of [
      'Grace.Hopper@example.com',
      'grace.hopper',
      'Grace',
      'Hopper',
      'amazing_grace',
      '1990-12-09',
      '$argon2id',
    ]) {
      for (const row of rows) expect(row.text).not.toContain(secret);
    }
  });

  it('forgets a person: events read as erased and a rebuilt read model keeps nothing of them', async () => {
    const userId = randomUUID();
    await registerAndComplete(userId);
    await test.core.vault.forgetSubject(userId);
    const [registered] = await test.core.store.readStream(accountStream(userId));
    expect(registered!.data).toMatchObject({
      userId,
      emailAddress: { $erased: true },
      passwordHash: { $erased: true },
    });

    await test.core.projections.stop();
    await rebuildProjection(test.db, test.core.store, usersProjection);
    const row = await test.db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      email_address: '',
      first_name: null,
      last_name: null,
      username: null,
      birth_date: null,
    });
  });
});
