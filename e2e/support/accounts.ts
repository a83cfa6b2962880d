import { randomUUID } from 'node:crypto';
import type { BrowserContext } from 'playwright-core';

export interface TestAccount {
  emailAddress: string;
  password: string;
  firstName: string;
}

/**
 * A finished account made through the API, signed in in `context`: the session cookies the server set, and the
 * browser's "may have a session" hint the client keeps in localStorage.
 */
export async function signedInAccount(baseUrl: string, context: BrowserContext): Promise<TestAccount> {
  const account = {
    emailAddress: `shell-${randomUUID().slice(0, 8)}@example.com`,
    password: 'violet-harbour-lantern-42',
    firstName: 'Grace',
  };
  // Each account from its own client address behind the trusted local proxy, so sign-up limits per IP stay apart.
  const headers = { 'Content-Type': 'application/json', 'X-Forwarded-For': `198.51.100.${randomByte()}` };
  const signup = await fetch(`${baseUrl}/api/auth/signup`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ emailAddress: account.emailAddress, password: account.password }),
  });
  if (signup.status !== 201) throw new Error(`sign-up answered ${signup.status}: ${await signup.text()}`);
  const cookies = signup.headers.getSetCookie().map((line) => line.split(';')[0]!);
  const complete = await fetch(`${baseUrl}/api/auth/signup/complete`, {
    method: 'POST',
    headers: { ...headers, Cookie: cookies.join('; ') },
    body: JSON.stringify({
      firstName: account.firstName,
      lastName: 'Hopper',
      username: `grace${randomUUID().slice(0, 6)}`,
      gender: 'female',
      birthDate: '1990-12-09',
    }),
  });
  if (complete.status !== 200) throw new Error(`sign-up completion answered ${complete.status}`);

  const { hostname } = new URL(baseUrl);
  await context.addCookies(
    cookies.map((pair) => {
      const [name, ...value] = pair.split('=');
      return { name: name!, value: value.join('='), domain: hostname, path: '/', httpOnly: true, sameSite: 'Lax' };
    }),
  );
  await context.addInitScript(() => window.localStorage.setItem('serendip.session', '1'));
  return account;
}

const randomByte = () => Math.floor(Math.random() * 250) + 1;
