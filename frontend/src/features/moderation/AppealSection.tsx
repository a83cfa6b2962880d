import { APPEAL_EXPLANATION_MAX_LENGTH, type AppealStatusValue } from '@serendip/proto';
import { useState } from 'react';
import { Link } from 'react-router';
import { FormAlert } from '../../shared/forms/FormAlert';
import { errorsFromFailure, type FieldRules } from '../../shared/forms/form-errors';
import { useSubmission } from '../../shared/forms/use-submission';
import { logError } from '../../shared/log';
import { notify } from '../../shared/toasts/notify';
import { Button, buttonClassName } from '../../ui/Button';
import { Textarea } from '../../ui/Textarea';
import type { ModerationApi } from './moderation-api';
import { APPEAL_TOASTS, BANNED_SCREEN_TEXTS as T } from './moderation-messages';
import { BAN_HISTORY_PATH } from './moderation-routes';

type AppealField = 'appealExplanation';
const RULES: FieldRules<AppealField> = { appealExplanation: { label: 'Your appeal' } };

interface AppealSectionProps {
  userId: string;
  status: AppealStatusValue;
  api: ModerationApi;
  /** The server took the appeal: the screen shows it pending without asking again (spec 4 "Appeal"). */
  onAppealed: (explanation: string) => void;
}

/**
 * spec 2: with no appeal yet, the way to make one (spec 4 "Appeal form": collapsed or open); after it, where to follow
 * it. One appeal per ban (spec 1), so the second variant offers none.
 */
export function AppealSection({ userId, status, api, onAppealed }: AppealSectionProps) {
  const [open, setOpen] = useState(false);
  if (status !== 'none') {
    return (
      <div className="banned-appeal">
        <p>{T.alreadyAppealed}</p>
        <Link className={buttonClassName({ variant: 'quiet' })} to={BAN_HISTORY_PATH}>
          {T.viewDetails}
        </Link>
      </div>
    );
  }
  return (
    <div className="banned-appeal">
      <p>
        If you believe this decision is a mistake, you can appeal it once. A moderator reviews your explanation; if the
        appeal is approved, the restriction is lifted and the violation is removed from your record.
      </p>
      {open ? (
        <AppealForm userId={userId} api={api} onCancel={() => setOpen(false)} onAppealed={onAppealed} />
      ) : (
        <Button className="banned-appeal__open" onClick={() => setOpen(true)}>
          {T.appealButton}
        </Button>
      )}
    </div>
  );
}

function AppealForm({
  userId,
  api,
  onCancel,
  onAppealed,
}: Pick<AppealSectionProps, 'userId' | 'api' | 'onAppealed'> & { onCancel: () => void }) {
  const [explanation, setExplanation] = useState('');
  const { formRef, sending, errors, submit } = useSubmission<AppealField>();

  return (
    <form
      ref={formRef}
      className="banned-appeal__form"
      aria-label="Appeal"
      noValidate
      onSubmit={(event) =>
        void submit(
          event,
          () => {
            if (explanation.trim()) return null;
            // spec 5: a blank appeal is refused here, and nothing is sent.
            notify.error(APPEAL_TOASTS.blank);
            return { fields: { appealExplanation: [APPEAL_TOASTS.blank] }, form: [] };
          },
          async () => {
            const text = explanation.trim();
            await api.appealBan(userId, text);
            notify.success(APPEAL_TOASTS.submitted);
            onAppealed(text);
          },
          (error) => {
            // spec 8: logged, the toast, and the form stays open; the server's own words say why (409: appealed
            // already; 400: too long).
            logError('Appeal failed', error);
            notify.error(APPEAL_TOASTS.failed);
            return errorsFromFailure(error, RULES, APPEAL_TOASTS.failed);
          },
        )
      }
    >
      <Textarea
        label="Your appeal"
        hideLabel
        placeholder={T.appealPlaceholder}
        value={explanation}
        onChange={(event) => setExplanation(event.target.value)}
        maxLength={APPEAL_EXPLANATION_MAX_LENGTH}
        rows={5}
        hint={`Up to ${APPEAL_EXPLANATION_MAX_LENGTH.toLocaleString('en-US')} characters. You can appeal only once.`}
        error={errors.fields.appealExplanation?.join(' ')}
        disabled={sending}
        // The form opened because the user asked to write: start there.
        autoFocus
      />
      <FormAlert messages={errors.form} />
      <div className="banned-appeal__actions">
        <Button variant="ghost" onClick={onCancel} disabled={sending}>
          Cancel
        </Button>
        <Button type="submit" busy={sending}>
          {T.submitAppeal}
        </Button>
      </div>
    </form>
  );
}
