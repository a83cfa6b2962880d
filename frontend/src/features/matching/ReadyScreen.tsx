import { INTERESTS, type MatchFilters, matchFiltersSchema } from '@serendip/proto';
import { Camera, CameraOff, Mic, MicOff, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Button } from '../../ui/Button';
import { Input } from '../../ui/Input';
import { Flag } from './Flag';
import { MATCHING_TEXTS } from './matching-messages';
import { selectMatching } from './matching.selectors';
import { matchingActions as a } from './matching.slice';
import { SelfView } from './MatchVideos';
import { summarize } from './preferences';
import './ready.css';

/**
 * spec 2 "Ready": the summary ('Any' where unset), the optional interests, and a look at oneself before the first
 * call: the camera with the microphone meter, so a dark room or a muted microphone shows before a stranger sees it.
 */
export function ReadyStep({ filters }: { filters: MatchFilters }) {
  const summary = summarize(filters);
  return (
    <div className="match-ready">
      <MediaPreview />
      <div className="match-ready__choices">
        <dl className="match-summary">
          <div>
            <dt>Gender</dt>
            <dd>{summary.gender}</dd>
          </div>
          <div>
            <dt>Country</dt>
            <dd>
              {filters.country && <Flag code={filters.country} decorative />} {summary.country}
            </dd>
          </div>
          <div>
            <dt>Age Range</dt>
            <dd>{summary.ageRange}</dd>
          </div>
        </dl>
        <InterestsField value={filters.interests ?? []} />
      </div>
    </div>
  );
}

/** The camera and microphone as the partner will get them, with their switches (the same ones the call has). */
function MediaPreview() {
  const dispatch = useAppDispatch();
  const { permission, media } = useAppSelector(selectMatching);
  // The camera is on while this shows; leaving the screen (not for the call) turns it off (the saga decides).
  useEffect(() => {
    dispatch(a.previewRequested());
    return () => {
      dispatch(a.previewEnded());
    };
  }, [dispatch]);
  return (
    <div className="match-preview" aria-label="Your camera" role="group">
      <SelfView />
      {permission === 'waiting' && <p className="match-preview__note">{MATCHING_TEXTS.waitingPermission}</p>}
      {permission === 'denied' && (
        <p className="match-preview__note" role="alert">
          {MATCHING_TEXTS.permissionDenied}
        </p>
      )}
      <div className="match-preview__switches">
        <Button
          variant="quiet"
          iconOnly
          aria-label="Microphone"
          aria-pressed={media.mic}
          onClick={() => dispatch(a.mediaToggled('mic'))}
        >
          {media.mic ? <Mic aria-hidden="true" /> : <MicOff aria-hidden="true" />}
        </Button>
        <Button
          variant="quiet"
          iconOnly
          aria-label="Camera"
          aria-pressed={media.camera}
          onClick={() => dispatch(a.mediaToggled('camera'))}
        >
          {media.camera ? <Camera aria-hidden="true" /> : <CameraOff aria-hidden="true" />}
        </Button>
      </div>
    </div>
  );
}

/**
 * Up to five interests: among compatible people waiting, someone sharing one is preferred for a few seconds
 * (DESIGN.md "Matching"). Enter or a comma adds what was typed; the same rules as the server's.
 */
function InterestsField({ value }: { value: string[] }) {
  const dispatch = useAppDispatch();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | undefined>();
  const full = value.length >= INTERESTS.max;
  const add = () => {
    const checked = matchFiltersSchema.shape.interests.safeParse([...value, draft]);
    if (!draft.trim()) return;
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'That interest cannot be used');
      return;
    }
    dispatch(a.filtersChanged({ interests: checked.data }));
    setDraft('');
    setError(undefined);
  };
  const remove = (interest: string) =>
    dispatch(a.filtersChanged({ interests: value.filter((tag) => tag !== interest) }));
  return (
    <div className="match-interests">
      <Input
        label="Interests (optional)"
        hint={
          full
            ? `That is ${INTERESTS.max}, the most you can add.`
            : 'Someone who shares one is preferred for a few seconds. Press Enter to add.'
        }
        error={error}
        placeholder="e.g. music, chess, hiking"
        maxLength={INTERESTS.maxLength}
        disabled={full}
        value={draft}
        onChange={(e) => {
          setDraft(e.target.value);
          setError(undefined);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ',') {
            e.preventDefault();
            add();
          }
        }}
        onBlur={() => draft.trim() && add()}
      />
      {value.length > 0 && (
        <ul className="match-interests__tags" aria-label="Your interests">
          {value.map((interest) => (
            <li key={interest} className="match-tag">
              {interest}
              <button type="button" aria-label={`Remove ${interest}`} onClick={() => remove(interest)}>
                <X aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The interests both chose, shown in the call ('You both like chess'). */
export function SharedInterests() {
  const { sharedInterests } = useAppSelector(selectMatching);
  if (sharedInterests.length === 0) return null;
  return (
    <p className="match-shared" aria-label={`You both like ${sharedInterests.join(', ')}`}>
      <span aria-hidden="true">You both like</span>
      {sharedInterests.map((interest) => (
        <span key={interest} className="match-tag" aria-hidden="true">
          {interest}
        </span>
      ))}
    </p>
  );
}
