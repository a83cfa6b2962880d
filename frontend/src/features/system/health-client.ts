import { HEALTH_MESSAGES, HEALTH_PATH, healthAnswerSchema } from '@serendip/proto';

/** What one health probe concluded; plain data so it can go into the store as it is. */
export type HealthCheckResult = { status: 'up'; detail: string } | { status: 'down'; detail: string };

// spec 8: the health texts for a non-200 answer and for a failed request.
export const HEALTH_DETAILS = {
  unexpected: 'Unexpected response.',
  unreachable: 'Server is unreachable.',
} as const;

/**
 * The spec sets no timeout on product calls, but boot waits on this probe: a server that accepts the
 * connection and never answers must not keep the loading overlay up forever.
 */
export const HEALTH_CHECK_TIMEOUT_MS = 10_000;

/**
 * GET /api/health. spec 7: 200 means up, anything else down. An answer that breaks the shared contract counts as
 * down too: a proxy's HTML error page or a half-deployed server is not a healthy Serendip. Never throws.
 */
export async function checkHealth(timeoutMs: number = HEALTH_CHECK_TIMEOUT_MS): Promise<HealthCheckResult> {
  let response: Response;
  try {
    response = await fetch(HEALTH_PATH, {
      credentials: 'include',
      cache: 'no-store',
      headers: { Accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    return { status: 'down', detail: HEALTH_DETAILS.unreachable };
  }

  const answer = healthAnswerSchema.safeParse(await readJson(response));
  if (!answer.success) return { status: 'down', detail: HEALTH_DETAILS.unexpected };
  if (response.status === 200 && answer.data.message === HEALTH_MESSAGES.up) {
    return { status: 'up', detail: answer.data.message };
  }
  if (response.status === 200) return { status: 'down', detail: HEALTH_DETAILS.unexpected };
  return { status: 'down', detail: answer.data.reason ?? answer.data.message };
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}
