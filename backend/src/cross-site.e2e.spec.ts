import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './test-support/test-app.js';
import { VIDEO_USER_PASSWORD, videoUser } from './test-support/video-users.js';

/**
 * Cross-site request forgery: another site's page can make the browser send a form POST, with the user's cookies on
 * some browsers. It must neither sign the victim in as the attacker (login CSRF) nor change the victim's account.
 */
describe('requests from another site', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await startTestApp();
  });
  afterAll(async () => {
    await test?.close();
  });

  it("refuses an HTML form posted to login (the attacker's account is not signed in)", async () => {
    const attacker = await videoUser(test.base, { firstName: 'Mallory' });
    const form = new URLSearchParams({ emailAddress: attacker.user.emailAddress, password: VIDEO_USER_PASSWORD });
    const res = await fetch(`${test.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ message: ['body: must be JSON (application/json)'] });
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("refuses a change whose Origin is another site's, even with the victim's cookies, and changes nothing", async () => {
    const victim = await videoUser(test.base, { firstName: 'Ada' });
    const edit = (headers: Record<string, string>) =>
      fetch(`${test.base}/api/user/edit-profile`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: victim.api.cookieHeader(), ...headers },
        body: JSON.stringify({ firstName: 'Pwned' }),
      });
    expect((await edit({ Origin: 'https://evil.example' })).status).toBe(403);
    // No Origin (older browsers on some requests), but the browser says the request crosses sites.
    expect((await edit({ 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await victim.api.call('GET', '/auth/user-info')).body.firstName).toBe('Ada');

    // From our own pages it works.
    const own = await edit({ Origin: test.base, 'Sec-Fetch-Site': 'same-origin' });
    expect(own.status).toBe(200);
    expect((await own.json()).firstName).toBe('Pwned');
  });
});
