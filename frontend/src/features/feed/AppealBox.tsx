import { REMOVAL_APPEAL_MAX_LENGTH } from '@serendip/proto';
import { useState } from 'react';
import { Textarea } from '../../ui/Textarea';

export const APPEAL_TEXTS = {
  appealPlaceholder: 'Explain why you believe this comment should be shown again...',
  appealBlank: 'Please provide a reason for your appeal.',
} as const;

/**
 * The explanation a removed comment's or reply's author appeals with, from the 'Comment Removed' notice or from the
 * post's page: one box, one rule. `onAppeal` sends it and says whether it was taken.
 */
export function useAppealBox(onAppeal: (explanation: string) => Promise<boolean>) {
  const [explanation, setExplanation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  return {
    explanation,
    setExplanation,
    error,
    sending,
    async send() {
      // spec 5: an appeal's explanation must be non-blank after trimming; nothing is sent otherwise.
      if (!explanation.trim()) return setError(APPEAL_TEXTS.appealBlank);
      setError(null);
      setSending(true);
      const taken = await onAppeal(explanation.trim());
      if (!taken) setSending(false);
    },
  };
}

export function AppealBox({ box }: { box: ReturnType<typeof useAppealBox> }) {
  return (
    <Textarea
      label="Your appeal"
      placeholder={APPEAL_TEXTS.appealPlaceholder}
      rows={3}
      maxLength={REMOVAL_APPEAL_MAX_LENGTH}
      autoFocus
      value={box.explanation}
      error={box.error ?? undefined}
      disabled={box.sending}
      onChange={(e) => box.setExplanation(e.target.value)}
    />
  );
}
