import { HEALTH_MESSAGES, HEALTH_PATH } from '@serendip/proto';
import { describe, expect, it, vi } from 'vitest';
import { answerWith } from '../../test-support/render-app';
import { checkHealth, HEALTH_DETAILS } from './health-client';

describe('checkHealth', () => {
  it('is up on a 200 that carries the up message', async () => {
    const fetchStub = vi.fn(answerWith(200, { message: HEALTH_MESSAGES.up }));
    vi.stubGlobal('fetch', fetchStub);

    await expect(checkHealth()).resolves.toEqual({ status: 'up', detail: HEALTH_MESSAGES.up });
    expect(fetchStub).toHaveBeenCalledWith(HEALTH_PATH, expect.objectContaining({ credentials: 'include' }));
  });

  it('is down on a 503 and keeps the reason the server gave', async () => {
    vi.stubGlobal('fetch', answerWith(503, { message: HEALTH_MESSAGES.down, reason: 'database unreachable' }));

    await expect(checkHealth()).resolves.toEqual({ status: 'down', detail: 'database unreachable' });
  });

  it.each([
    ['a body without a message', { status: 'ok' }],
    ['an empty message', { message: '' }],
    ['a message of the wrong type', { message: 42 }],
    ['an HTML page', '<!doctype html><title>502</title>'],
    ['a 200 that says it is down', { message: HEALTH_MESSAGES.down }],
  ])('treats a 200 with %s as down', async (_case, body) => {
    vi.stubGlobal('fetch', answerWith(200, body));

    await expect(checkHealth()).resolves.toEqual({ status: 'down', detail: HEALTH_DETAILS.unexpected });
  });

  it('is down when the server cannot be reached', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));

    await expect(checkHealth()).resolves.toEqual({ status: 'down', detail: HEALTH_DETAILS.unreachable });
  });

  it('gives up on a server that never answers', async () => {
    const neverAnswers = (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    vi.stubGlobal('fetch', neverAnswers);

    await expect(checkHealth(1)).resolves.toEqual({ status: 'down', detail: HEALTH_DETAILS.unreachable });
  });
});
