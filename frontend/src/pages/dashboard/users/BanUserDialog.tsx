import {
  type PenaltyRequest,
  type PenaltySuggestionView,
  VIOLATION_LEVELS,
  type ViolationLevel,
} from '@serendip/proto';
import { type FormEvent, useEffect, useState } from 'react';
import { LEVEL_LABEL } from '../../../features/moderation/ban-display';
import { isHttpError } from '../../../shared/http/http-error';
import { logError } from '../../../shared/log';
import { Button, Dialog, DialogClose, DialogContent, DialogFooter, Input, Spinner, Textarea } from '../../../ui';
import { dashUsersApi } from './dash-users-api';

type Kind = PenaltyRequest['kind'];
const KIND_LABELS: Record<Kind, string> = {
  warning: 'Warning',
  restriction: 'Restriction',
  permanent: 'Permanent ban',
};

/**
 * Ban from a person's details (spec 9 penalty tiers): the level, the policy's suggestion for this person's record at
 * that level (chosen at first), and the penalty; another penalty than the suggestion needs a stated reason, as the
 * server demands.
 */
export function BanUserDialog({
  userId,
  name,
  open,
  onOpenChange,
  onBanned,
}: {
  userId: string;
  name: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onBanned: () => void;
}) {
  const [level, setLevel] = useState<ViolationLevel>('moderate');
  const [suggestion, setSuggestion] = useState<{ level: ViolationLevel; view: PenaltySuggestionView } | null>(null);
  const [kind, setKind] = useState<Kind | 'suggested'>('suggested');
  const [days, setDays] = useState('7');
  const [reason, setReason] = useState('');
  const [overrideReason, setOverrideReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (!open) return;
    let live = true;
    dashUsersApi.penaltySuggestion(userId, level).then(
      (view) => live && setSuggestion({ level, view }),
      (failure: unknown) => logError('Penalty suggestion failed', failure),
    );
    return () => {
      live = false;
    };
  }, [open, userId, level]);

  const current = suggestion?.level === level ? suggestion.view : null;
  const following = kind === 'suggested';

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!reason.trim()) return setError('Say why the user is banned.');
    let penalty: PenaltyRequest;
    if (following) {
      if (!current) return setError('Wait for the policy’s suggestion, or choose a penalty.');
      penalty =
        current.kind === 'restriction' ? { kind: 'restriction', days: current.days ?? 1 } : { kind: current.kind };
    } else {
      const n = Number(days);
      if (kind === 'restriction' && (!Number.isInteger(n) || n < 1))
        return setError('Days must be a whole number, 1 or more.');
      penalty = kind === 'restriction' ? { kind, days: n } : { kind };
      if (!overrideReason.trim()) return setError('Say why you choose another penalty than the policy suggests.');
    }
    setSending(true);
    try {
      await dashUsersApi.ban(userId, {
        reason: reason.trim(),
        level,
        penalty,
        ...(following ? {} : { overrideReason: overrideReason.trim() }),
      });
      onBanned();
    } catch (failure) {
      logError('Ban failed', failure);
      setError(isHttpError(failure) ? failure.message : 'The ban could not be sent. Try again.');
    } finally {
      setSending(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={`Ban ${name}`}>
        <form className="dash-user__form" onSubmit={submit} noValidate>
          <label className="dash-user__select">
            <span>Violation level</span>
            <select value={level} onChange={(e) => setLevel(e.target.value as ViolationLevel)}>
              {VIOLATION_LEVELS.map((l) => (
                <option key={l} value={l}>
                  {LEVEL_LABEL[l]}
                </option>
              ))}
            </select>
          </label>
          <p className="dash-user__suggestion" aria-live="polite">
            {current ? (
              <>
                Policy suggestion: <strong>{describePenalty(current)}</strong>. {current.explanation}
              </>
            ) : (
              <Spinner size="sm" label="Asking the penalty policy" />
            )}
          </p>
          <label className="dash-user__select">
            <span>Penalty</span>
            <select value={kind} onChange={(e) => setKind(e.target.value as Kind | 'suggested')}>
              <option value="suggested">The policy’s suggestion</option>
              {(Object.keys(KIND_LABELS) as Kind[]).map((k) => (
                <option key={k} value={k}>
                  {KIND_LABELS[k]}
                </option>
              ))}
            </select>
          </label>
          {kind === 'restriction' && (
            <Input
              label="Duration (days)"
              type="number"
              min={1}
              inputMode="numeric"
              value={days}
              onChange={(e) => setDays(e.target.value)}
            />
          )}
          {!following && (
            <Textarea
              label="Why not the policy’s suggestion"
              rows={2}
              value={overrideReason}
              onChange={(e) => setOverrideReason(e.target.value)}
            />
          )}
          <Textarea
            label="Reason (the user sees it)"
            rows={2}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
          {error && (
            <p role="alert" className="dash-user__error">
              {error}
            </p>
          )}
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

export function describePenalty(p: { kind: Kind; days?: number }): string {
  if (p.kind === 'restriction') return `Restriction for ${p.days} day${p.days === 1 ? '' : 's'}`;
  return KIND_LABELS[p.kind];
}
