import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient as Client } from '../../test-support/api-client.js';
import { startTestApp, type TestApp } from '../../test-support/test-app.js';

const PASSWORD = 'violet-harbour-lantern-42';
const email = () => `cookie-${randomUUID().slice(0, 8)}@example.com`;

/** The line that sets `name` to a value (not one that clears it). */
function setCookie(lines: string[], name: string): string | undefined {
  return lines.find((line) => line.startsWith(`${name}=`) && !line.startsWith(`${name}=;`));
}

function cleared(lines: string[], name: string): string[] {
  return lines.filter((line) => line.startsWith(`${name}=;`));
}

async function signUp(test: TestApp) {
  const client = new Client(test.base);
  const res = await client.call('POST', '/auth/signup', { emailAddress: email(), password: PASSWORD });
  expect(res.status).toBe(201);
  return { client, res };
}

/**
 * Session hygiene (spec 3 "Session cookies", with the deviations the README names): the access token lives in its
 * HttpOnly cookie only, so script on the page (an XSS) can never read it; the refresh token is sent to the refresh
 * route only; two tabs refreshing at once do not look like a stolen token.
 */
describe('Session hygiene: tokens and cookies', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await startTestApp();
  });
  afterAll(async () => {
    await test?.close();
  });

  it('the refresh answer carries no access token: a script on the page cannot read it', async () => {
    const { client } = await signUp(test);
    const refreshed = await client.call('POST', '/auth/refresh-token');
    expect(refreshed.status).toBe(200);
    expect(JSON.stringify(refreshed.body)).not.toContain(client.cookies.get('accessToken'));
    expect(refreshed.body).not.toHaveProperty('accessToken');
    expect(setCookie(refreshed.setCookies, 'accessToken')).toMatch(/HttpOnly/i);
    expect((await client.call('GET', '/auth/user-info')).status).toBe(200);
  });

  it('the refresh cookie is sent to the refresh route only, not with every request', async () => {
    const { client, res } = await signUp(test);
    expect(setCookie(res.setCookies, 'refreshToken')).toMatch(/Path=\/api\/auth\/refresh-token(;|$)/);
    expect(setCookie(res.setCookies, 'accessToken')).toMatch(/Path=\/(;|$)/);
    const refreshed = await client.call('POST', '/auth/refresh-token');
    expect(setCookie(refreshed.setCookies, 'refreshToken')).toMatch(/Path=\/api\/auth\/refresh-token(;|$)/);
    // Logging out clears it where it lives (and where earlier versions put it).
    const out = await client.call('POST', '/auth/logout');
    const paths = cleared(out.setCookies, 'refreshToken').map((line) => /Path=([^;]+)/.exec(line)?.[1]);
    expect(paths.sort()).toEqual(['/', '/api/auth/refresh-token']);
  });

  it('two tabs refreshing at once both stay signed in (no false theft alarm)', async () => {
    const { client } = await signUp(test);
    const tab = (jar: Map<string, string>) => {
      const other = new Client(test.base);
      other.cookies = new Map(jar);
      return other;
    };
    const [a, b] = [tab(client.cookies), tab(client.cookies)];
    const answers = await Promise.all([a.call('POST', '/auth/refresh-token'), b.call('POST', '/auth/refresh-token')]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    // Both tabs share one cookie jar in a browser: the rotated refresh token is the one that keeps working. The tab
    // that lost the race gets no new one (only the clearing of the old path's cookie, which empties this test's
    // name-keyed jar), so it is skipped: whichever tab won, the new token is found.
    const rotated = [a, b]
      .map((jar) => jar.cookies.get('refreshToken'))
      .find((t) => t !== undefined && t !== '' && t !== client.cookies.get('refreshToken'));
    expect(rotated).toBeDefined();
    const browser = tab(a.cookies);
    browser.cookies.set('refreshToken', rotated!);
    expect((await browser.call('GET', '/auth/user-info')).status).toBe(200);
    expect((await browser.call('POST', '/auth/refresh-token')).status).toBe(200);
    expect((await browser.call('GET', '/auth/user-info')).status).toBe(200);
  });
});

describe('Session hygiene: __Host- cookie names under https', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await startTestApp({ PUBLIC_URL: 'https://serendip.example' });
  });
  afterAll(async () => {
    await test?.close();
  });

  it('names the cookies __Host-accessToken and __Secure-refreshToken, Secure, so a sibling host cannot plant one', async () => {
    const { client, res } = await signUp(test);
    const access = setCookie(res.setCookies, '__Host-accessToken');
    expect(access).toMatch(/Secure/i);
    expect(access).toMatch(/Path=\/(;|$)/);
    expect(access).not.toMatch(/Domain=/i);
    expect(setCookie(res.setCookies, '__Secure-refreshToken')).toMatch(/Secure/i);
    // The unprefixed cookies a browser may hold from before are cleared, not left to ride along.
    expect(setCookie(res.setCookies, 'accessToken')).toBeUndefined();
    expect(cleared(res.setCookies, 'accessToken')).toEqual([expect.stringMatching(/Path=\/(;|$)/)]);
    expect(cleared(res.setCookies, 'refreshToken')).toEqual([expect.stringMatching(/Path=\/(;|$)/)]);
    expect((await client.call('GET', '/auth/user-info')).status).toBe(200);

    // A cookie without the prefix (set by another host of the domain: cookie tossing) signs no one in.
    const tossed = new Client(test.base);
    tossed.cookies.set('accessToken', client.cookies.get('__Host-accessToken')!);
    expect((await tossed.call('GET', '/auth/user-info')).status).toBe(401);
    const refreshed = await client.call('POST', '/auth/refresh-token');
    expect(refreshed.status).toBe(200);
    expect(setCookie(refreshed.setCookies, '__Host-accessToken')).toBeDefined();
  });
});
