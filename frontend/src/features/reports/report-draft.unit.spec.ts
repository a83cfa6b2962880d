import { afterEach, describe, expect, it } from 'vitest';
import {
  forgetDraft,
  hasEnteredData,
  loadDraft,
  pendingDraftCall,
  REPORT_DRAFT_KEY,
  type ReportDraft,
  saveDraft,
  SCREENSHOT_ATTACHABLE_MS,
  severityOf,
} from './report-draft';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const HOUR = 60 * 60 * 1000;

function aDraft(overrides: Partial<ReportDraft> = {}): ReportDraft {
  return {
    reporterId: 'user-1',
    target: { matchId: 'match-1', partnerId: 'bob', partnerName: 'Bob' },
    reason: 'harassment',
    severity: 'high',
    details: 'He shouted',
    screenshot: { image: 'data:image/jpeg;base64,AAAA', screenshotId: 'shot-1', uploadedAt: NOW - 10 * 60_000 },
    savedAt: NOW - 60_000,
    ...overrides,
  };
}

describe('the report draft kept in this browser (spec 3)', () => {
  afterEach(() => localStorage.clear());

  it('comes back for the same account and call, as it was saved', () => {
    saveDraft(aDraft());
    expect(loadDraft({ reporterId: 'user-1', matchId: 'match-1', now: NOW })).toEqual(aDraft());
  });

  it('is nobody else’s: another account or another call finds none', () => {
    saveDraft(aDraft());
    expect(loadDraft({ reporterId: 'user-2', matchId: 'match-1', now: NOW })).toBeNull();
    expect(loadDraft({ reporterId: 'user-1', matchId: 'match-2', now: NOW })).toBeNull();
    expect(pendingDraftCall({ reporterId: 'user-2', now: NOW })).toBeNull();
    expect(pendingDraftCall({ reporterId: 'user-1', now: NOW })).toBe('match-1');
  });

  it('drops a screenshot the server no longer lets its uploader attach, and a draft past the report window', () => {
    saveDraft(aDraft({ screenshot: { ...aDraft().screenshot!, uploadedAt: NOW - SCREENSHOT_ATTACHABLE_MS } }));
    expect(loadDraft({ reporterId: 'user-1', matchId: 'match-1', now: NOW })).toMatchObject({
      reason: 'harassment',
      screenshot: null,
    });
    saveDraft(aDraft({ savedAt: NOW - 25 * HOUR }));
    expect(loadDraft({ reporterId: 'user-1', matchId: 'match-1', now: NOW })).toBeNull();
  });

  it('ignores anything in the key that is not a draft', () => {
    for (const junk of ['{', 'null', '[]', JSON.stringify({ ...aDraft(), reason: 'rude' })]) {
      localStorage.setItem(REPORT_DRAFT_KEY, junk);
      expect(loadDraft({ reporterId: 'user-1', matchId: 'match-1', now: NOW })).toBeNull();
    }
    localStorage.setItem(
      REPORT_DRAFT_KEY,
      JSON.stringify({ ...aDraft(), screenshot: { ...aDraft().screenshot, image: 'javascript:alert(1)' } }),
    );
    expect(loadDraft({ reporterId: 'user-1', matchId: 'match-1', now: NOW })).toBeNull();
  });

  it('is forgotten only for its own call when one is named', () => {
    saveDraft(aDraft());
    forgetDraft('match-2');
    expect(localStorage.getItem(REPORT_DRAFT_KEY)).not.toBeNull();
    forgetDraft('match-1');
    expect(localStorage.getItem(REPORT_DRAFT_KEY)).toBeNull();
    saveDraft(aDraft());
    forgetDraft();
    expect(localStorage.getItem(REPORT_DRAFT_KEY)).toBeNull();
  });

  it('counts a reason or details as entered data, not the severity or an automatic screenshot', () => {
    expect(hasEnteredData({ reason: null, severity: 'high', details: '  ' })).toBe(false);
    expect(hasEnteredData({ reason: 'spam', severity: 'low', details: '' })).toBe(true);
    expect(hasEnteredData({ reason: null, severity: 'medium', details: 'x' })).toBe(true);
  });

  it('starts each reason at its spec 9 severity', () => {
    expect(severityOf('inappropriate')).toBe('high');
    expect(severityOf('spam')).toBe('low');
    expect(severityOf('scamming')).toBe('medium');
    expect(severityOf('other')).toBe('medium');
  });
});
