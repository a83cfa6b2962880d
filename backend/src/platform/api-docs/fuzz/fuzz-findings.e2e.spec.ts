import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../test-support/api-client.js';
import { startTestApp, type TestApp } from '../../../test-support/test-app.js';
import { videoUser } from '../../../test-support/video-users.js';

/** What http-fuzz.e2e.spec.ts found, each as the exact request that answered 500 before its fix. */
describe('requests the HTTP fuzz found answering 500', () => {
  let test: TestApp;
  let member: ApiClient;

  beforeAll(async () => {
    test = await startTestApp();
    member = (await videoUser(test.base, { confirmed: false })).api;
  });

  afterAll(async () => {
    await test?.close();
  });

  function nested(depth: number): unknown {
    let value: unknown = 'deep';
    for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
    return value;
  }

  async function post(client: ApiClient, path: string, body: unknown) {
    const res = await fetch(`${test.base}/api${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: client.cookieHeader(), 'X-Forwarded-For': client.ip },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  }

  it('refuses a body nested some thousand levels deep with a 400 naming the body', async () => {
    // Found by seed 20261126: the validators' recursion overflowed the stack and the answer was a 500.
    const refusal = { status: 400, body: { message: ['body: nested deeper than 32 levels'] } };
    expect(await post(member, '/auth/login', [nested(1_725)])).toMatchObject(refusal);
    const emailAddress = `${'a'.repeat(64)}@${'b'.repeat(250)}.com`;
    expect(
      await post(new ApiClient(test.base), '/auth/password-reset', { emailAddress, "3I~C{x9S':9B": nested(1_942) }),
    ).toMatchObject(refusal);
    // Bodies as deep as any the API takes still reach their validation.
    expect(await post(member, '/auth/login', nested(31))).toMatchObject({ status: 400 });
    expect((await post(member, '/auth/login', nested(31))).body).not.toEqual(refusal.body);
  });
});
