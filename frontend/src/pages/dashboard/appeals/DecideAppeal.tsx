import { Button, Textarea } from '../../../ui';

/**
 * The decision under an appeal (a ban's, or a removed comment's): a note, then Reject or Approve. The page holds the
 * note and sends the decision; this only draws it, the same for both kinds.
 */
export function DecideAppeal({
  label,
  hint,
  note,
  onNote,
  error,
  sending,
  onDecide,
}: {
  label: string;
  hint: string;
  note: string;
  onNote: (note: string) => void;
  error: string | null;
  sending: boolean;
  onDecide: (outcome: 'approved' | 'rejected') => void;
}) {
  return (
    <div className="dash-appeal__decide">
      <Textarea
        label={label}
        hint={hint}
        rows={2}
        value={note}
        onChange={(e) => onNote(e.target.value)}
        error={error ?? undefined}
      />
      <div className="dash-appeal__buttons">
        <Button variant="danger" disabled={sending} onClick={() => onDecide('rejected')}>
          Reject
        </Button>
        <Button disabled={sending} onClick={() => onDecide('approved')}>
          Approve
        </Button>
      </div>
    </div>
  );
}
