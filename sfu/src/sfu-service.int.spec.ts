import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningSfu, startSfu } from './sfu-service.js';

describe('sfu service', () => {
  let sfu: RunningSfu | undefined;
  afterEach(async () => sfu?.stop());

  it('answers its health probe over HTTP and says relay is not enabled yet', async () => {
    sfu = await startSfu({ healthPort: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }) });
    const res = await fetch(`http://127.0.0.1:${sfu.port}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: expect.stringContaining('not enabled'), workers: 0 });
    expect((await fetch(`http://127.0.0.1:${sfu.port}/nope`)).status).toBe(404);
  });

  it('frees its port when stopped', async () => {
    const started = await startSfu({ healthPort: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }) });
    await started.stop();
    await expect(fetch(`http://127.0.0.1:${started.port}/health`)).rejects.toThrow();
  });
});
