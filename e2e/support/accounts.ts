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
  const headers = { ...apiHeaders(), 'X-Forwarded-For': `198.51.100.${randomByte()}` };
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

  await useSession(baseUrl, context, cookies);
  return account;
}

/** Signs an existing account (without two-factor) in on another device: `context` gets a session of its own. */
export async function signIn(baseUrl: string, context: BrowserContext, account: TestAccount): Promise<void> {
  const login = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { ...apiHeaders(), 'X-Forwarded-For': `198.51.100.${randomByte()}` },
    body: JSON.stringify({ emailAddress: account.emailAddress, password: account.password }),
  });
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${await login.text()}`);
  await useSession(
    baseUrl,
    context,
    login.headers.getSetCookie().map((line) => line.split(';')[0]!),
  );
}

/** The session cookies the server set, and the browser's "may have a session" hint the client keeps. */
async function useSession(baseUrl: string, context: BrowserContext, cookies: string[]): Promise<void> {
  const { hostname } = new URL(baseUrl);
  await context.addCookies(
    cookies.map((pair) => {
      const [name, ...value] = pair.split('=');
      return { name: name!, value: value.join('='), domain: hostname, path: '/', httpOnly: true, sameSite: 'Lax' };
    }),
  );
  await context.addInitScript(() => window.localStorage.setItem('serendip.session', '1'));
}

/** As the browser would send them, so the devices list names a real browser. */
const apiHeaders = () => ({
  'Content-Type': 'application/json',
  'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
});

const randomByte = () => Math.floor(Math.random() * 250) + 1;
