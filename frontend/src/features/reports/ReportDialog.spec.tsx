import { AUTH_PATHS, MODERATION_PATHS } from '@serendip/proto';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test-support/render-app';
import {
  aUser,
  type FakeServer,
  rememberSessionInThisBrowser,
  reply,
  resetBrowser,
  serveFakeApi,
} from '../auth/auth-test-support';
import { aMatch, fakeMatchingServices } from '../matching/matching-test-support';
import { initialMatchingState, matchingActions } from '../matching/matching.slice';
import { REPORT_DRAFT_KEY } from './report-draft';
import { anUploadAnswer, aRecentCall, fakeUploads, partnerVideoShowsAFrame } from './reports-test-support';
import '../../ui/test-polyfills';

/** The toast list sonner renders, where notify's texts appear (the dialog may say the same inline). */
async function toastSaying(text: string): Promise<HTMLElement> {
  return waitFor(() => {
    const list = document.querySelector<HTMLElement>('[data-sonner-toaster]');
    if (!list) throw new Error('no toast is showing');
    return within(list).getByText(text);
  });
}

let leave: (() => void) | null = null;

/** The whole app on /video-match, in a connected call with Bob (aMatch), on fake socket, camera and API. */
async function inACallWithBob(prepare?: (server: FakeServer) => void) {
  const server = serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, aUser()));
  prepare?.(server);
  rememberSessionInThisBrowser();
  const uploads = fakeUploads();
  const frame = partnerVideoShowsAFrame();
  const matching = fakeMatchingServices();
  const app = renderApp('/video-match', {
    preloadedState: { matching: { ...initialMatchingState(), view: 'ready' } },
    services: { matching: matching.services },
  });
  leave = () => app.store.dispatch(matchingActions.leaveRequested());
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Start Matching' }));
  await waitFor(() => expect(matching.socket.sentOf('startMatching')).toHaveLength(1));
  act(() => matching.socket.receive({ type: 'matchFound', payload: aMatch() }));
  act(() => matching.media.raise({ type: 'connection-state', state: 'connected' }));
  await waitFor(() => expect(app.store.getState().matching.status).toBe('connected'));
  return { ...app, server, uploads, frame, matching, user };
}

async function openReport(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Report' }));
  return screen.findByRole('dialog', { name: 'Report User' });
}

/** Opens the dialog and lets the automatic screenshot upload to the end: the preview is up. */
async function reportWithScreenshot(t: Awaited<ReturnType<typeof inACallWithBob>>) {
  const dialog = await openReport(t.user);
  await waitFor(() => expect(t.uploads.sent).toHaveLength(1));
  act(() => t.uploads.last()!.respond(201, anUploadAnswer()));
  await within(dialog).findByRole('img', { name: "Screenshot of Bob's video" });
  return dialog;
}

const reasonOf = (dialog: HTMLElement) => within(dialog).getByLabelText('Reason') as HTMLSelectElement;
const severityOf = (dialog: HTMLElement) => within(dialog).getByLabelText('Severity') as HTMLSelectElement;

describe('the Report User dialog on the call screen (spec 2, 4, 5, 8)', () => {
  afterEach(() => {
    leave?.();
    leave = null;
    resetBrowser();
  });

  it('opens from Report, uploads a screenshot taken 500 ms later showing the percent, then tells the server', async () => {
    const t = await inACallWithBob();
    const dialog = await openReport(t.user);

    expect(within(dialog).getByText('About your call with Bob.')).toBeDefined();
    expect(t.uploads.sent).toHaveLength(0);
    // The automatic capture is due: shown as under way, with no manual one to start meanwhile (it would make two).
    expect(within(dialog).getByText('Capturing screenshot…')).toBeDefined();
    expect(within(dialog).queryByRole('button', { name: /Take screenshot/ })).toBeNull();
    // Not before the frame is taken: moving the call to the SFU swaps the partner's video under the capture.
    expect(t.matching.socket.sentOf('report:opened')).toEqual([]);

    await toastSaying('Screenshot captured automatically');
    // The server moves a peer-to-peer call to the SFU so that its own snapshot exists.
    expect(t.matching.socket.sentOf('report:opened')).toEqual([{ target: 'bob' }]);
    const upload = t.uploads.last()!;
    expect(upload).toMatchObject({ method: 'POST', url: MODERATION_PATHS.uploadScreenshot, withCredentials: true });
    expect(upload.headers['content-type']).toBe('image/jpeg');
    expect(upload.body).toBe(t.frame.jpeg);
    expect(t.frame.toBlob).toHaveBeenCalledWith(expect.any(Function), 'image/jpeg', 0.85);

    act(() => upload.progress(42, 100));
    const bar = await within(dialog).findByRole('progressbar', { name: 'Screenshot upload' });
    expect(bar.getAttribute('aria-valuenow')).toBe('42');
    expect(within(dialog).getByText('Uploading 42%')).toBeDefined();
    expect(
      (within(dialog).getByRole('button', { name: 'Waiting for the screenshot…' }) as HTMLButtonElement).disabled,
    ).toBe(true);

    act(() => upload.respond(201, anUploadAnswer()));
    const preview = await within(dialog).findByRole('img', { name: "Screenshot of Bob's video" });
    expect(preview.getAttribute('src')).toMatch(/^data:image\/jpeg;base64,/);
    expect(within(dialog).queryByRole('progressbar')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Remove screenshot' })).toBeDefined();
  });

  it('lists the reasons under their placeholder; a reason sets its severity, which the user may change', async () => {
    const t = await inACallWithBob();
    const dialog = await openReport(t.user);

    expect([...reasonOf(dialog).options].map((o) => o.text)).toEqual([
      'Select type of report',
      'Inappropriate content',
      'Harassment',
      'Abuse',
      'Spam',
      'Self-promotion',
      'Impersonation',
      'Scamming',
      'Underage user',
      'Other',
    ]);
    expect(reasonOf(dialog).value).toBe('');
    expect(severityOf(dialog).value).toBe('medium');

    await t.user.selectOptions(reasonOf(dialog), 'spam');
    expect(severityOf(dialog).value).toBe('low');
    await t.user.selectOptions(reasonOf(dialog), 'inappropriate');
    expect(severityOf(dialog).value).toBe('high');
    await t.user.selectOptions(severityOf(dialog), 'medium');
    expect(severityOf(dialog).value).toBe('medium');
  });

  it('asks for a reason before sending anything', async () => {
    const t = await inACallWithBob();
    const dialog = await openReport(t.user);

    await t.user.click(within(dialog).getByRole('button', { name: 'Submit report' }));

    await toastSaying('Please provide a reason for the report.');
    expect(within(dialog).getByText('Please provide a reason for the report.')).toBeDefined();
    expect(reasonOf(dialog).getAttribute('aria-invalid')).toBe('true');
    expect(t.server.requestsTo('POST', MODERATION_PATHS.submitReport)).toEqual([]);
  });

  it('sends the report about this call, with the screenshot’s id and no reporter, then closes and forgets it', async () => {
    const t = await inACallWithBob((server) =>
      server.on('POST', MODERATION_PATHS.submitReport, reply(201, { reportId: 'report-1', message: 'Filed' })),
    );
    const dialog = await reportWithScreenshot(t);
    await t.user.selectOptions(reasonOf(dialog), 'harassment');
    await t.user.type(within(dialog).getByLabelText('Details (optional)'), '  He kept insulting me  ');

    await t.user.click(within(dialog).getByRole('button', { name: 'Submit report' }));

    await toastSaying('Report submitted successfully');
    expect(t.server.requestsTo('POST', MODERATION_PATHS.submitReport).map((r) => r.body)).toEqual([
      {
        matchId: 'match-1',
        reportedUser: 'bob',
        reason: 'harassment',
        severity: 'high',
        screenshot: 'shot-1',
        details: 'He kept insulting me',
        type: 'videosession',
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Report User' })).toBeNull());
    expect(localStorage.getItem(REPORT_DRAFT_KEY)).toBeNull();
    expect(t.store.getState().matching.reportDialogOpen).toBe(false);
  });

  it('removes the screenshot, which the report then leaves out, and can take another on request', async () => {
    const t = await inACallWithBob((server) => server.on('POST', MODERATION_PATHS.submitReport, reply(201, {})));
    const dialog = await reportWithScreenshot(t);

    await t.user.click(within(dialog).getByRole('button', { name: 'Remove screenshot' }));
    expect(within(dialog).queryByRole('img', { name: "Screenshot of Bob's video" })).toBeNull();

    await t.user.click(within(dialog).getByRole('button', { name: 'Take screenshot' }));
    await toastSaying('Screenshot captured successfully');
    await waitFor(() => expect(t.uploads.sent).toHaveLength(2));
    await t.user.click(within(dialog).getByRole('button', { name: 'Remove screenshot' }));
    // The upload under way is stopped with it.
    expect(t.uploads.last()!.aborted).toBe(true);

    await t.user.selectOptions(reasonOf(dialog), 'spam');
    await t.user.click(within(dialog).getByRole('button', { name: 'Submit report' }));
    await toastSaying('Report submitted successfully');
    const [sent] = t.server.requestsTo('POST', MODERATION_PATHS.submitReport);
    expect(sent?.body).not.toHaveProperty('screenshot');
  });

  it('says so when no frame can be taken', async () => {
    const t = await inACallWithBob();
    vi.spyOn(HTMLVideoElement.prototype, 'videoWidth', 'get').mockReturnValue(0);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const dialog = await openReport(t.user);

    await toastSaying('Failed to capture screenshot');
    expect(t.uploads.sent).toEqual([]);
    expect(within(dialog).getByRole('button', { name: 'Take screenshot' })).toBeDefined();
  });

  it('keeps the draft through a reload, and the call screen leads back to it: reason, severity and screenshot come back', async () => {
    const t = await inACallWithBob((server) =>
      server.on('GET', MODERATION_PATHS.recentCalls, reply(200, [aRecentCall()])),
    );
    const dialog = await reportWithScreenshot(t);
    await t.user.selectOptions(reasonOf(dialog), 'harassment');
    await t.user.selectOptions(severityOf(dialog), 'medium');
    await waitFor(() => expect(localStorage.getItem(REPORT_DRAFT_KEY)).toContain('"severity":"medium"'));

    leave?.();
    t.unmount();
    // After the reload the call screen starts at the wizard, which leads back to the unsent report.
    renderApp('/video-match');
    expect(await screen.findByText(/Your report about Bob is not sent yet/)).toBeDefined();
    await t.user.click(screen.getByRole('link', { name: 'Continue report' }));

    const again = await screen.findByRole('dialog', { name: 'Report User' });
    expect(reasonOf(again).value).toBe('harassment');
    expect(severityOf(again).value).toBe('medium');
    expect(within(again).getByRole('img', { name: "Screenshot of Bob's video" }).getAttribute('src')).toMatch(
      /^data:image\/jpeg;base64,/,
    );
  });

  it('says when the draft cannot be kept in this browser', async () => {
    const t = await inACallWithBob();
    const dialog = await openReport(t.user);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });

    await t.user.selectOptions(reasonOf(dialog), 'abuse');

    await toastSaying('Failed to save data locally');
  });

  it('asks before closing with data entered: Cancel keeps it, Yes, close drops it', async () => {
    const t = await inACallWithBob();
    const dialog = await openReport(t.user);
    await t.user.selectOptions(reasonOf(dialog), 'scamming');

    await t.user.click(within(dialog).getByRole('button', { name: 'Close report' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Are you sure you want to close?' });
    expect(within(confirm).getByText('Your report data will be lost. Do you want to continue?')).toBeDefined();
    await t.user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByRole('dialog', { name: 'Report User' })).toBeDefined();

    await t.user.keyboard('{Escape}');
    await t.user.click(await screen.findByRole('button', { name: 'Yes, close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Report User' })).toBeNull());
    expect(localStorage.getItem(REPORT_DRAFT_KEY)).toBeNull();
  });

  it('closes at once when nothing was entered', async () => {
    const t = await inACallWithBob();
    const dialog = await openReport(t.user);

    await t.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Report User' })).toBeNull());
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('shows why the server refused the report, and keeps it open', async () => {
    const t = await inACallWithBob((server) =>
      server.on(
        'POST',
        MODERATION_PATHS.submitReport,
        reply(409, { statusCode: 409, message: 'You have already reported this call.', error: 'Conflict' }),
      ),
    );
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const dialog = await openReport(t.user);
    await t.user.selectOptions(reasonOf(dialog), 'other');

    await t.user.click(within(dialog).getByRole('button', { name: 'Submit report' }));

    await toastSaying('You have already reported this call.');
    expect(within(dialog).getByRole('alert').textContent).toContain('You have already reported this call.');
    expect(screen.getByRole('dialog', { name: 'Report User' })).toBeDefined();
  });

  it('says only that it failed when the server broke', async () => {
    const t = await inACallWithBob((server) =>
      server.on(
        'POST',
        MODERATION_PATHS.submitReport,
        reply(500, { statusCode: 500, message: 'Internal server error' }),
      ),
    );
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const dialog = await openReport(t.user);
    await t.user.selectOptions(reasonOf(dialog), 'other');

    await t.user.click(within(dialog).getByRole('button', { name: 'Submit report' }));

    await toastSaying('Failed to submit report');
    expect(within(dialog).getByRole('alert').textContent).toBe('Failed to submit report');
  });

  it('holds the next match while it is open after the partner left, and stays about that call (spec 4)', async () => {
    const t = await inACallWithBob((server) => server.on('POST', MODERATION_PATHS.submitReport, reply(201, {})));
    const dialog = await openReport(t.user);

    act(() =>
      t.matching.socket.receive({ type: 'partnerDisconnected', payload: { matchId: 'match-1', reason: 'leave' } }),
    );
    await waitFor(() => expect(t.store.getState().matching.partner).toBeNull());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(t.matching.socket.sentOf('startMatching')).toHaveLength(1);
    expect(within(dialog).getByText('About your call with Bob.')).toBeDefined();

    await t.user.selectOptions(reasonOf(dialog), 'abuse');
    await t.user.click(within(dialog).getByRole('button', { name: 'Submit report' }));
    await toastSaying('Report submitted successfully');
    expect(t.server.requestsTo('POST', MODERATION_PATHS.submitReport)[0]?.body).toMatchObject({
      matchId: 'match-1',
      reportedUser: 'bob',
    });
    // Closed: the next match starts now.
    await waitFor(() => expect(t.matching.socket.sentOf('startMatching')).toHaveLength(2));
  });

  it('has no WCAG A/AA failures axe can find', async () => {
    const t = await inACallWithBob();
    const dialog = await reportWithScreenshot(t);
    const result = await axe.run(dialog, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      rules: { 'color-contrast': { enabled: false } },
    });
    expect(result.violations.map((v) => v.id)).toEqual([]);
  });
});
