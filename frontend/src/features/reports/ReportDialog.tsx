import {
  REPORT_DETAILS_MAX_LENGTH,
  REPORT_REASONS,
  REPORT_SEVERITIES,
  type ReportReason,
  type SubmitReportRequest,
} from '@serendip/proto';
import { useEffect, useRef, useState } from 'react';
import { useAppSelector } from '../../app/hooks';
import { FormAlert } from '../../shared/forms/FormAlert';
import { errorsFromFailure, type FieldRules, type FormErrors } from '../../shared/forms/form-errors';
import { useSubmission } from '../../shared/forms/use-submission';
import { isHttpError } from '../../shared/http/http-error';
import { logError } from '../../shared/log';
import { notify } from '../../shared/toasts/notify';
import { Button } from '../../ui/Button';
import { Dialog, DialogContent, DialogFooter } from '../../ui/Dialog';
import { Textarea } from '../../ui/Textarea';
import { selectCurrentUser } from '../auth/session.selectors';
import { ConfirmClose } from './ConfirmClose';
import {
  EMPTY_FORM,
  forgetDraft,
  hasEnteredData,
  isReportReason,
  isReportSeverity,
  loadDraft,
  type ReportForm,
  type ReportTarget,
  saveDraft,
  severityOf,
} from './report-draft';
import { REASON_LABELS, REPORT_TEXTS, SEVERITY_LABELS } from './report-texts';
import { type ReportsApi, reportsApi } from './reports-api';
import type { Screenshot } from './screenshot-state';
import { ScreenshotPanel } from './ScreenshotPanel';
import { attachedPicture, NO_SCREENSHOT } from './screenshot-state';
import { SelectField } from './SelectField';
import { useReportScreenshot } from './use-report-screenshot';
import './reports.css';

type Field = 'reason' | 'severity' | 'details' | 'screenshot';
const FIELD_RULES: FieldRules<Field> = {
  reason: { label: 'Reason' },
  severity: { label: 'Severity' },
  details: { label: 'Details' },
  screenshot: { label: 'Screenshot' },
};

const REASON_OPTIONS = (Object.keys(REPORT_REASONS) as ReportReason[]).map((reason) => ({
  value: reason,
  label: REASON_LABELS[reason],
}));
const SEVERITY_OPTIONS = REPORT_SEVERITIES.map((severity) => ({ value: severity, label: SEVERITY_LABELS[severity] }));

export interface ReportDialogProps {
  /** The call reported, fixed when the dialog opened. */
  target: ReportTarget;
  /**
   * The partner's video while that call is on (the call screen): captured automatically and on request. Absent from
   * Recent calls, where the call is over. Keep it the same function between renders.
   */
  partnerVideo?: () => HTMLVideoElement | null;
  /** The dialog is done: closed, or its report sent. */
  onClose: () => void;
  onSubmitted?: () => void;
  /** The automatic screenshot has read the partner's video (see useReportScreenshot). Keep it the same function. */
  onAutoCaptureDone?: () => void;
  api?: ReportsApi;
}

/**
 * spec 2 "Report User dialog": a reason (which sets its default severity, spec 9), the severity, optional details and a
 * screenshot. Open while mounted. The draft is kept in this browser until it is sent or given up (spec 3).
 */
/** Shown until the automatic capture runs (spec 4: 500 ms after opening), so nobody starts a second one meanwhile. */
const AUTO_CAPTURE_DUE: Screenshot = { status: 'capturing', attempt: 0, previous: null };

export function ReportDialog({
  target,
  partnerVideo,
  onClose,
  onSubmitted,
  onAutoCaptureDone,
  api = reportsApi,
}: ReportDialogProps) {
  const reporterId = useAppSelector(selectCurrentUser)?._id ?? null;
  const [restored] = useState(() =>
    reporterId ? loadDraft({ reporterId, matchId: target.matchId, now: Date.now() }) : null,
  );
  const [form, setForm] = useState<ReportForm>(() =>
    restored ? { reason: restored.reason, severity: restored.severity, details: restored.details } : EMPTY_FORM,
  );
  const { screenshot, autoPending, take, remove } = useReportScreenshot({
    initial: restored?.screenshot ? { status: 'preview', picture: restored.screenshot } : NO_SCREENSHOT,
    partnerVideo,
    upload: api.uploadScreenshot,
    onAutoCaptureDone,
  });
  const [confirming, setConfirming] = useState(false);
  const { formRef, sending, errors, submit } = useSubmission<Field>();

  // spec 3: kept in this browser as it changes, once there is something worth keeping.
  const picture = attachedPicture(screenshot);
  const saveFailed = useRef(false);
  useEffect(() => {
    if (!reporterId || (!hasEnteredData(form) && !picture)) return;
    try {
      saveDraft({ ...form, reporterId, target, screenshot: picture, savedAt: Date.now() });
      saveFailed.current = false;
    } catch (error) {
      logError('The report draft could not be stored', error);
      if (!saveFailed.current) notify.error(REPORT_TEXTS.saveFailed);
      saveFailed.current = true;
    }
  }, [form, picture, reporterId, target]);

  // Unmounting stops an upload under way.
  const discard = () => {
    forgetDraft(target.matchId);
    onClose();
  };
  const requestClose = () => {
    if (sending) return;
    if (hasEnteredData(form)) setConfirming(true);
    else discard();
  };

  const check = (): FormErrors<Field> | null => {
    if (!form.reason) {
      notify.error(REPORT_TEXTS.reasonRequired);
      return { fields: { reason: [REPORT_TEXTS.reasonRequired] }, form: [] };
    }
    // spec 5: both sides of the report must be known (the reporter is the session; the call names the other).
    if (!reporterId || !target.matchId || target.partnerId === '') {
      notify.error(REPORT_TEXTS.missingUserData);
      return { fields: {}, form: [REPORT_TEXTS.missingUserData] };
    }
    return null;
  };

  const send = async () => {
    const details = form.details.trim();
    const request: SubmitReportRequest = {
      matchId: target.matchId,
      ...(target.partnerId ? { reportedUser: target.partnerId } : {}),
      reason: form.reason!,
      severity: form.severity,
      ...(picture ? { screenshot: picture.screenshotId } : {}),
      ...(details ? { details } : {}),
      type: 'videosession',
    };
    await api.submitReport(request);
    forgetDraft(target.matchId);
    notify.success(REPORT_TEXTS.submitted);
    onSubmitted?.();
    onClose();
  };

  const describe = (error: unknown): FormErrors<Field> => {
    logError('The report was not sent', error);
    // A refusal says why (already reported, too late): the user should learn it. Anything else is ours.
    const refused = isHttpError(error) && error.status >= 400 && error.status < 500;
    const errors = refused ? errorsFromFailure(error, FIELD_RULES, REPORT_TEXTS.submitFailed) : undefined;
    const said = errors ? [...errors.form, ...Object.values<string[] | undefined>(errors.fields).flat()] : [];
    notify.error(said.filter(Boolean).join(' ') || REPORT_TEXTS.submitFailed);
    return errors ?? { fields: {}, form: [REPORT_TEXTS.submitFailed] };
  };

  const busyWithScreenshot = screenshot.status === 'capturing' || screenshot.status === 'uploading';
  return (
    <Dialog open onOpenChange={(open) => !open && requestClose()}>
      <DialogContent
        title={REPORT_TEXTS.title}
        description={`About your call with ${target.partnerName}.`}
        className="report-dialog"
        closeLabel="Close report"
      >
        <form
          ref={formRef}
          className="report-form"
          noValidate
          onSubmit={(event) => void submit(event, check, send, describe)}
        >
          <SelectField
            label="Reason"
            placeholder={REPORT_TEXTS.reasonPlaceholder}
            value={form.reason ?? ''}
            options={REASON_OPTIONS}
            error={form.reason ? undefined : errors.fields.reason?.join(' ')}
            disabled={sending}
            onChange={(value) => {
              // spec 9: each reason starts at its own severity; the user may still change it.
              if (isReportReason(value)) setForm((now) => ({ ...now, reason: value, severity: severityOf(value) }));
            }}
          />
          <SelectField
            label="Severity"
            value={form.severity}
            options={SEVERITY_OPTIONS}
            error={errors.fields.severity?.join(' ')}
            disabled={sending}
            onChange={(value) => isReportSeverity(value) && setForm((now) => ({ ...now, severity: value }))}
          />
          <Textarea
            label="Details (optional)"
            placeholder="What happened?"
            rows={3}
            maxLength={REPORT_DETAILS_MAX_LENGTH}
            value={form.details}
            disabled={sending}
            hint={`${form.details.length}/${REPORT_DETAILS_MAX_LENGTH}`}
            error={errors.fields.details?.join(' ')}
            onChange={(event) => {
              const details = event.target.value;
              setForm((now) => ({ ...now, details }));
            }}
          />
          <ScreenshotPanel
            screenshot={autoPending && screenshot.status === 'idle' ? AUTO_CAPTURE_DUE : screenshot}
            partnerName={target.partnerName}
            onTake={partnerVideo ? take : undefined}
            onRemove={remove}
          />
          <FormAlert messages={[...errors.form, ...(errors.fields.screenshot ?? [])]} />
          <DialogFooter>
            <Button variant="quiet" onClick={requestClose} disabled={sending}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" busy={sending} disabled={busyWithScreenshot}>
              {busyWithScreenshot ? 'Waiting for the screenshot…' : 'Submit report'}
            </Button>
          </DialogFooter>
        </form>
        <ConfirmClose open={confirming} onCancel={() => setConfirming(false)} onConfirm={discard} />
      </DialogContent>
    </Dialog>
  );
}
