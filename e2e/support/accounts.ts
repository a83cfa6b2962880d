import { randomUUID } from 'node:crypto';
import type { BrowserContext } from 'playwright-core';

export interface TestAccount {
  emailAddress: string;
  password: string;
  firstName: string;
}

/**
 * A finished account made through the API, signed in in `context`: the session cookies the server set, and the
 * browser's "may have a session" hint the client keeps in localStorage. `confirmed`: its sign-up link followed too
 * (matching needs it), read from the app's dev outbox, so the app must run without SMTP_URL.
 */
export async function signedInAccount(
  baseUrl: string,
  context: BrowserContext,
  { confirmed = false }: { confirmed?: boolean } = {},
): Promise<TestAccount> {
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
  if (confirmed) await confirmEmail(baseUrl, account.emailAddress, { ...headers, Cookie: cookies.join('; ') });

  await useSession(baseUrl, context, cookies);
  return account;
}

/** Follows the sign-up link from the dev outbox; returns once the account reads as confirmed. */
async function confirmEmail(baseUrl: string, emailAddress: string, headers: Record<string, string>): Promise<void> {
  let token: string | undefined;
  for (let tries = 0; !token && tries < 100; tries++) {
    if (tries) await new Promise((r) => setTimeout(r, 100));
    // Asked from this machine, forwarded for nobody: the outbox answers nobody else.
    const outbox = await fetch(`${baseUrl}/api/dev/outbox`);
    if (outbox.status !== 200) throw new Error(`the dev outbox answered ${outbox.status} (is SMTP_URL set?)`);
    const mails = (await outbox.json()) as { to: string; text: string }[];
    token = mails.find((m) => m.to === emailAddress)?.text.match(/verify-email\?token=([\w-]+)/)?.[1];
  }
  if (!token) throw new Error(`no sign-up mail to ${emailAddress} in the dev outbox`);
  const verified = await fetch(`${baseUrl}/api/auth/verify-email`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ token }),
  });
  if (verified.status !== 200) throw new Error(`verify-email answered ${verified.status}`);
  // The read model takes the confirmation in a moment later; the page reads it from there.
  for (let tries = 0; tries < 100; tries++) {
    const info = await fetch(`${baseUrl}/api/auth/user-info`, { headers });
    if (((await info.json()) as { emailVerified?: boolean }).emailVerified) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('user-info never said the e-mail address was confirmed');
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
