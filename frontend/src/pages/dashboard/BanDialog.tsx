import {
  type BanUserRequest,
  type DashReport,
  type PenaltyRequest,
  type PenaltySuggestionView,
  VIOLATION_LEVELS,
  type ViolationLevel,
} from '@serendip/proto';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useAppSelector } from '../../app/hooks';
import { selectCurrentUser } from '../../features/auth/session.selectors';
import { LEVEL_LABEL } from '../../features/moderation/ban-display';
import { REASON_LABELS } from '../../features/reports/report-texts';
import { isHttpError } from '../../shared/http/http-error';
import { logError } from '../../shared/log';
import { Button, Dialog, DialogClose, DialogContent, DialogFooter, Input, Spinner, Textarea } from '../../ui';
import { banUser, fetchPenaltySuggestion } from './reports/dash-moderation-api';
import './ban-dialog.css';

/** The level a report's severity suggests first; the moderator judges it. */
const LEVEL_OF_SEVERITY: Record<DashReport['severity'], ViolationLevel> = {
  low: 'minor',
  medium: 'moderate',
  high: 'severe',
};

type Kind = PenaltyRequest['kind'];
const KIND_LABELS: Record<Kind, string> = {
  warning: 'Warning',
  restriction: 'Restriction',
  permanent: 'Permanent ban',
};

/** The longest restriction a moderator may set; permanent and longer bans are an admin's (spec 6, the server's rule). */
export const MODERATOR_MAX_BAN_DAYS = 30;
export const BAN_DIALOG_TEXTS = {
  adminDecidesLonger: `An admin decides bans longer than ${MODERATOR_MAX_BAN_DAYS} days.`,
  tooLong: `A moderator bans for up to ${MODERATOR_MAX_BAN_DAYS} days; an admin decides longer bans.`,
} as const;

const withinModeratorLimit = (p: { kind: Kind; days?: number }) =>
  p.kind === 'warning' || (p.kind === 'restriction' && (p.days ?? 1) <= MODERATOR_MAX_BAN_DAYS);

export function describePenalty(p: { kind: Kind; days?: number }): string {
  if (p.kind === 'restriction') return `Restriction for ${p.days} day${p.days === 1 ? '' : 's'}`;
  return KIND_LABELS[p.kind];
}

/**
 * A ban (spec 9 penalty tiers), from a report or from a person's page: the policy's suggestion for this user's record
 * at the chosen level comes first; another penalty needs a stated reason, as the server demands. From a report, the
 * level starts at what its severity suggests, the reason names it, and the report is marked actioned with the ban.
 */
export function BanDialog({
  target,
  report,
  open,
  onOpenChange,
  onBanned,
}: {
  target: { userId: string; name: string };
  report?: Pick<DashReport, '_id' | 'number' | 'reason' | 'severity'>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onBanned: (caseId: string) => void;
}) {
  const ids = useId();
  const { userId, name } = target;
  // A moderator is offered what the server lets them do: up to 30 days, never a permanent ban.
  const isAdmin = useAppSelector(selectCurrentUser)?.role === 'admin';
  const kinds = (Object.keys(KIND_LABELS) as Kind[]).filter((k) => isAdmin || k !== 'permanent');
  const [level, setLevel] = useState<ViolationLevel>(report ? LEVEL_OF_SEVERITY[report.severity] : 'moderate');
  const [suggestion, setSuggestion] = useState<{ level: ViolationLevel; view: PenaltySuggestionView } | null>(null);
  const [suggestionFailed, setSuggestionFailed] = useState<ViolationLevel | null>(null);
  const [follow, setFollow] = useState(true);
  const [kind, setKind] = useState<Kind>('restriction');
  const [days, setDays] = useState('7');
  const [reason, setReason] = useState(
    report ? `${REASON_LABELS[report.reason] ?? report.reason} (report #${report.number})` : '',
  );
  const [overrideReason, setOverrideReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    fetchPenaltySuggestion(userId, level, controller.signal).then(
      (view) => setSuggestion({ level, view }),
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        logError('Penalty suggestion failed', failure);
        setSuggestionFailed(level);
      },
    );
    return () => controller.abort();
  }, [open, userId, level]);

  const current = suggestion?.level === level ? suggestion.view : null;
  const suggestionLoading = !current && suggestionFailed !== level;
  const suggestionAllowed = current !== null && (isAdmin || withinModeratorLimit(current));
  const following = follow && suggestionAllowed;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!reason.trim()) return setError('Say why the user is banned.');
    let penalty: PenaltyRequest;
    if (following) {
      penalty =
        current.kind === 'restriction' ? { kind: 'restriction', days: current.days ?? 1 } : { kind: current.kind };
    } else {
      const n = Number(days);
      if (kind === 'restriction' && (!Number.isInteger(n) || n < 1))
        return setError('Days must be a whole number, 1 or more.');
      if (!isAdmin && !withinModeratorLimit({ kind, days: n })) return setError(BAN_DIALOG_TEXTS.tooLong);
      penalty = kind === 'restriction' ? { kind, days: n } : { kind };
      if (!overrideReason.trim()) return setError('Say why you choose another penalty than the policy suggests.');
    }
    const request: BanUserRequest = {
      reason: reason.trim(),
      level,
      penalty,
      ...(report ? { reportId: report._id } : {}),
      ...(following ? {} : { overrideReason: overrideReason.trim() }),
    };
    setSending(true);
    try {
      const { caseId } = await banUser(userId, request);
      onBanned(caseId);
    } catch (failure) {
      logError('Ban failed', failure);
      setError(isHttpError(failure) ? failure.message : 'The ban could not be sent. Try again.');
    } finally {
      setSending(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={`Ban ${name}`} description={report ? `Acting on report #${report.number}.` : undefined}>
        <form className="dash-ban" onSubmit={submit} noValidate>
          <label className="dash-select">
            <span>Violation level</span>
            <select value={level} onChange={(e) => setLevel(e.target.value as ViolationLevel)}>
              {VIOLATION_LEVELS.map((l) => (
                <option key={l} value={l}>
                  {LEVEL_LABEL[l]}
                </option>
              ))}
            </select>
          </label>

          <fieldset className="dash-ban__penalty">
            <legend>Penalty</legend>
            <label className="dash-radio">
              <input
                type="radio"
                name={`${ids}-penalty`}
                checked={following}
                disabled={!suggestionAllowed}
                onChange={() => setFollow(true)}
              />
              <span>
                Policy suggestion:{' '}
                {current ? (
                  <strong>{describePenalty(current)}</strong>
                ) : suggestionLoading ? (
                  <Spinner size="sm" label="Asking the penalty policy" />
                ) : (
                  'not available'
                )}
                {current ? <span className="dash-muted dash-ban__why">{current.explanation}</span> : null}
                {current && !suggestionAllowed ? (
                  <span className="dash-ban__why dash-ban__admin-only">{BAN_DIALOG_TEXTS.adminDecidesLonger}</span>
                ) : null}
              </span>
            </label>
            <label className="dash-radio">
              <input type="radio" name={`${ids}-penalty`} checked={!following} onChange={() => setFollow(false)} />
              <span>Another penalty</span>
            </label>
            {!following ? (
              <div className="dash-ban__other">
                <label className="dash-select">
                  <span>Penalty type</span>
                  <select value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
                    {kinds.map((k) => (
                      <option key={k} value={k}>
                        {KIND_LABELS[k]}
                      </option>
                    ))}
                  </select>
                </label>
                {kind === 'restriction' ? (
                  <Input
                    label="Days"
                    type="number"
                    min={1}
                    max={isAdmin ? undefined : MODERATOR_MAX_BAN_DAYS}
                    inputMode="numeric"
                    value={days}
                    onChange={(e) => setDays(e.target.value)}
                  />
                ) : null}
                <Textarea
                  label="Why not the policy's suggestion"
                  rows={2}
                  value={overrideReason}
                  onChange={(e) => setOverrideReason(e.target.value)}
                />
              </div>
            ) : null}
          </fieldset>

          <Textarea
            label="Reason (the user sees it)"
            rows={2}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
          {error ? (
            <p role="alert" className="dash-error">
              {error}
            </p>
          ) : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="quiet" type="button">
                Cancel
              </Button>
            </DialogClose>
            <Button variant="danger" type="submit" disabled={sending}>
              {sending ? 'Banning…' : 'Ban user'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
