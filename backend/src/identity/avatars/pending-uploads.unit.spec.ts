import { describe, expect, it } from 'vitest';
import { PendingUploads } from './pending-uploads.js';

const HOUR = 60 * 60_000;
const pending = () => new PendingUploads({ perPerson: 2, maxBytes: 100, expiresAfterMs: HOUR });

describe('PendingUploads', () => {
  it("drops a person's oldest unfinished uploads past two, and frees their bytes", () => {
    const uploads = pending();
    expect(uploads.admit('a1', 'ada', 40, 0)).toEqual({ ok: true, dropped: [] });
    expect(uploads.admit('a2', 'ada', 40, 1)).toEqual({ ok: true, dropped: [] });
    expect(uploads.admit('b1', 'bob', 10, 2)).toEqual({ ok: true, dropped: [] });
    // 90 declared; Ada's third needs her first's 40 to fit.
    expect(uploads.admit('a3', 'ada', 40, 3)).toEqual({ ok: true, dropped: ['a1'] });
    expect(uploads.declaredBytes()).toBe(90);
  });

  it('refuses an upload past the cap and then drops nothing', () => {
    const uploads = pending();
    uploads.admit('a1', 'ada', 60, 0);
    uploads.admit('b1', 'bob', 30, 0);
    expect(uploads.admit('c1', 'cyd', 11, 1)).toEqual({ ok: false });
    expect(uploads.admit('b2', 'bob', 11, 1)).toEqual({ ok: false });
    expect(uploads.declaredBytes()).toBe(90);
    expect(uploads.admit('c1', 'cyd', 10, 1)).toEqual({ ok: true, dropped: [] });
  });

  it('frees the bytes of a finished or ended upload, and of one past its expiry', () => {
    const uploads = pending();
    uploads.admit('a1', 'ada', 60, 0);
    uploads.release('a1');
    expect(uploads.admit('b1', 'bob', 100, 10)).toEqual({ ok: true, dropped: [] });
    expect(uploads.admit('c1', 'cyd', 1, HOUR + 9)).toEqual({ ok: false });
    // An hour after it started, tus no longer resumes it: it stops counting.
    expect(uploads.admit('c1', 'cyd', 1, HOUR + 10)).toEqual({ ok: true, dropped: [] });
    expect(uploads.declaredBytes()).toBe(1);
  });
});
