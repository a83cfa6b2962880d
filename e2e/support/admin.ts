import { expect } from 'vitest';
import type { AppServer } from './app-server.js';

/** An admin of `server` (its ADMIN_EMAIL account) signed in over the API: a fetch of /api paths with its cookies. */
export async function adminApi(server: AppServer, account: { emailAddress: string; password: string }) {
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(account),
  });
  expect(login.status).toBe(200);
  const cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  return (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}/api${path}`, {
      method,
      headers: { Cookie: cookie, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
}
