import { describe, it } from 'vitest';
import { DeciderSpecification } from '../../platform/cqrs/decider-specification.js';
import { report, type ReportCommand } from './report.decider.js';
import type { ReportEvent, ReportFiled } from './report.events.js';

const now = new Date('2026-11-25T12:00:00Z');
const spec = DeciderSpecification.for(report);
const given = (events: ReportEvent[], at = now, actor = 'ann') => spec.given(events, { now: at, actor });
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);

/** Ann reports the other side of call m1, which she had with Bob and which ended `endedHoursAgo` ago. */
const fileReport = (
  endedHoursAgo: number | null = 1,
  overrides: Partial<Extract<ReportCommand, { type: 'FileReport' }>> = {},
) => ({
  type: 'FileReport' as const,
  reportId: 'r1',
  reporterId: 'ann',
  call: {
    matchId: 'm1',
    userIds: ['bob', 'ann'] as [string, string],
    endedAt: endedHoursAgo === null ? null : hoursAgo(endedHoursAgo),
  },
  reason: 'harassment' as const,
  severity: 'high' as const,
  details: '  shouted slurs  ',
  screenshot: { file: 'r1.jpg', sha256: 'ab'.repeat(32), bytes: 1234 },
  ...overrides,
});

const filed: ReportFiled = {
  type: 'ReportFiled',
  data: {
    reportId: 'r1',
    matchId: 'm1',
    reporterId: 'ann',
    reportedId: 'bob',
    reason: 'harassment',
    severity: 'high',
    details: 'shouted slurs',
    screenshot: { file: 'r1.jpg', sha256: 'ab'.repeat(32), bytes: 1234 },
    filedAt: now.toISOString(),
  },
};

describe('a report: who may report whom', () => {
  it('names the other party of the call as reported: the server finds who, from the call', () => {
    given([]).when(fileReport()).then([filed]);
  });

  it('can be filed while the call is on', () => {
    given([]).when(fileReport(null)).then([filed]);
  });

  it('refuses a reporter who was not in the call, and a call that does not exist, alike', () => {
    given([])
      .when(fileReport(1, { reporterId: 'eve' }))
      .thenThrows('not-your-call');
    given([])
      .when(fileReport(1, { call: undefined }))
      .thenThrows('not-your-call');
  });

  it('takes reports up to 24 hours after the call ended, not later', () => {
    given([])
      .when(fileReport(23.9))
      .then([{ ...filed }]);
    given([]).when(fileReport(24.1)).thenThrows('report-window-over');
  });

  it('is filed once per reporter and call', () => {
    given([filed]).when(fileReport()).thenThrows('already-reported');
  });

  it('refuses details past the limit', () => {
    given([])
      .when(fileReport(1, { details: 'x'.repeat(1001) }))
      .thenThrows('too-long');
  });
});

describe('a report: evidence and review', () => {
  it("attaches the server's snapshot once", () => {
    const attached = {
      type: 'ServerSnapshotAttached' as const,
      data: { reportId: 'r1', snapshotId: 's1', sha256: 'cd' },
    };
    given([filed]).when({ type: 'AttachServerSnapshot', snapshotId: 's1', sha256: 'cd' }).then([attached]);
    given([filed, attached])
      .when({ type: 'AttachServerSnapshot', snapshotId: 's2', sha256: 'ef' })
      .thenNothingHappened();
  });

  it('records who looked at the screenshot', () => {
    given([filed], now, 'admin-1')
      .when({ type: 'RecordScreenshotView' })
      .then([{ type: 'ReportScreenshotViewed', data: { reportId: 'r1', viewedBy: 'admin-1' } }]);
    given([{ ...filed, data: { ...filed.data, screenshot: null } }])
      .when({ type: 'RecordScreenshotView' })
      .thenThrows('no-such-report');
  });

  it('is reviewed once: a false report needs a reason, an actioned one names its ban', () => {
    given([filed], now, 'admin-1')
      .when({ type: 'ResolveReport', outcome: 'false', note: ' made up, the call shows nothing ', caseId: null })
      .then([
        {
          type: 'ReportResolved',
          data: {
            reportId: 'r1',
            reporterId: 'ann',
            outcome: 'false',
            by: 'admin-1',
            note: 'made up, the call shows nothing',
            caseId: null,
          },
        },
      ]);
    given([filed], now, 'admin-1')
      .when({ type: 'ResolveReport', outcome: 'false', note: ' ', caseId: null })
      .thenThrows('note-missing');
    given([filed], now, 'admin-1')
      .when({ type: 'ResolveReport', outcome: 'actioned', note: '', caseId: null })
      .thenThrows('case-missing');
    const dismissed = {
      type: 'ReportResolved' as const,
      data: { reportId: 'r1', reporterId: 'ann', outcome: 'dismissed' as const, by: 'admin-1', note: '', caseId: null },
    };
    given([filed, dismissed], now, 'admin-1')
      .when({ type: 'ResolveReport', outcome: 'dismissed', note: '', caseId: null })
      .thenThrows('already-resolved');
    given([])
      .when({ type: 'ResolveReport', outcome: 'dismissed', note: '', caseId: null })
      .thenThrows('no-such-report');
  });

  it('is reviewed by neither of its parties: not the reported person, not the reporter', () => {
    given([filed], now, 'bob')
      .when({ type: 'ResolveReport', outcome: 'dismissed', note: '', caseId: null })
      .thenThrows('review-own-case');
    given([filed], now, 'ann')
      .when({ type: 'ResolveReport', outcome: 'false', note: 'made up', caseId: null })
      .thenThrows('review-own-report');
    given([filed], now, 'ann')
      .when({ type: 'ResolveReport', outcome: 'actioned', note: '', caseId: 'case-1' })
      .thenThrows('review-own-report');
  });
});
