import { MATCH_AGE, type MatchFilters } from '@serendip/proto';
import { Check, Globe, Search } from 'lucide-react';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { errorsFromFailure } from '../../shared/forms/form-errors';
import { logError } from '../../shared/log';
import { notify } from '../../shared/toasts/notify';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { Input } from '../../ui/Input';
import { Slider } from '../../ui/Slider';
import { authApi } from '../auth/auth-api';
import { UnsentReportNotice } from '../reports/UnsentReportNotice';
import { selectCurrentUser } from '../auth/session.selectors';
import { userUpdated } from '../auth/session.slice';
import { countryList } from './countries';
import { Flag } from './Flag';
import { MATCHING_TEXTS } from './matching-messages';
import { selectMatching } from './matching.selectors';
import { matchingActions as a, WIZARD_STEPS } from './matching.slice';
import { ANY_AGE, isAnyAge } from './preferences';
import { ReadyStep } from './ReadyScreen';

/** spec 2: the four step titles. */
const TITLES = ['Select Gender', 'Select Country', 'Select Age Range', 'Your Preferences'] as const;

/**
 * spec 2 "Preference wizard": gender, country, age range, then the summary and 'Start Matching'. Once the account has
 * saved preferences, later visits (and Leave) open on that last step alone, the ready screen, with Edit for the rest.
 */
export function PreferenceWizard() {
  const { step: wizardStep, filters, view } = useAppSelector(selectMatching);
  const dispatch = useAppDispatch();
  const change = (patch: Partial<MatchFilters>) => dispatch(a.filtersChanged(patch));
  const ready = view === 'ready';
  const step = ready ? WIZARD_STEPS.length - 1 : wizardStep;
  const last = step === WIZARD_STEPS.length - 1;
  const titleId = useId();
  const confirmId = useId();
  // The server refuses to match an unconfirmed address; say so before anyone picks preferences for nothing.
  const unconfirmed = useAppSelector(selectCurrentUser)?.emailVerified === false;
  return (
    <Card className={`match-wizard${last ? ' match-wizard--ready' : ''}`} aria-labelledby={titleId}>
      {!ready && (
        <ol className="match-wizard__steps" aria-label="Steps">
          {TITLES.map((title, i) => (
            <li
              key={title}
              className={i <= step ? 'is-done' : undefined}
              aria-current={i === step ? 'step' : undefined}
            >
              <span className="visually-hidden">{title}</span>
            </li>
          ))}
        </ol>
      )}
      <h1 id={titleId} className="match-wizard__title">
        {TITLES[step]}
      </h1>
      {unconfirmed && <ConfirmEmailNotice id={confirmId} />}
      <UnsentReportNotice />
      <div className="match-wizard__body">
        {step === 0 && <GenderStep value={filters.gender} onChange={(gender) => change({ gender })} />}
        {step === 1 && <CountryStep value={filters.country} onChange={(country) => change({ country })} />}
        {step === 2 && <AgeStep value={filters.ageRange} onChange={(ageRange) => change({ ageRange })} />}
        {step === 3 && <ReadyStep filters={filters} />}
      </div>
      <div className="match-wizard__nav">
        {ready ? (
          <Button variant="quiet" onClick={() => dispatch(a.editRequested())}>
            Edit
          </Button>
        ) : (
          step > 0 && (
            <Button variant="quiet" onClick={() => dispatch(a.wizardStepChanged(step - 1))}>
              Back
            </Button>
          )
        )}
        {last ? (
          <Button
            size="lg"
            disabled={unconfirmed}
            aria-describedby={unconfirmed ? confirmId : undefined}
            onClick={() => dispatch(a.matchingStarted())}
          >
            Start Matching
          </Button>
        ) : (
          <Button onClick={() => dispatch(a.wizardStepChanged(step + 1))}>Next</Button>
        )}
      </div>
    </Card>
  );
}

/**
 * The account's e-mail address is not confirmed yet, so matching would be refused. The link is usually opened in
 * another tab (or on the phone): coming back to this one, or the button, asks the server again. The first link lasts a
 * day; a new one can be asked for.
 */
function ConfirmEmailNotice({ id }: { id: string }) {
  const dispatch = useAppDispatch();
  const [checking, setChecking] = useState(false);
  const [sending, setSending] = useState(false);
  const resend = async () => {
    setSending(true);
    try {
      notify.success(await authApi.resendVerification());
    } catch (error) {
      logError('Could not send a new confirmation link', error);
      notify.error(errorsFromFailure(error, {}, MATCHING_TEXTS.confirmEmailResendFailed).form.join(' '));
    } finally {
      setSending(false);
    }
  };
  const check = useCallback(
    async (asked = false) => {
      setChecking(true);
      try {
        const user = await authApi.fetchUserInfo();
        dispatch(userUpdated(user));
        if (asked && !user.emailVerified) notify.info(MATCHING_TEXTS.confirmEmailNotYet);
      } catch (error) {
        logError('Could not check whether the e-mail address is confirmed', error);
      } finally {
        setChecking(false);
      }
    },
    [dispatch],
  );
  useEffect(() => {
    const onVisible = () => {
      if (!document.hidden) void check();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [check]);
  return (
    <div className="match-wizard__confirm" role="status">
      <p id={id}>
        <strong>{MATCHING_TEXTS.confirmEmail}</strong> {MATCHING_TEXTS.confirmEmailHow}
      </p>
      <div className="match-wizard__confirm-actions">
        <Button variant="quiet" size="sm" busy={checking} onClick={() => void check(true)}>
          I have confirmed it
        </Button>
        <Button variant="quiet" size="sm" busy={sending} onClick={() => void resend()}>
          Send the link again
        </Button>
      </div>
    </div>
  );
}

function GenderStep({
  value,
  onChange,
}: {
  value: MatchFilters['gender'];
  onChange: (v: MatchFilters['gender']) => void;
}) {
  return (
    <>
      <div className="match-tiles match-tiles--three" role="group" aria-label="Gender">
        {(['male', 'female'] as const).map((gender) => (
          <button
            key={gender}
            type="button"
            className="match-tile"
            aria-pressed={value === gender}
            // Choosing the chosen one again clears it: both genders.
            onClick={() => onChange(value === gender ? null : gender)}
          >
            <span className="match-tile__symbol" aria-hidden="true">
              {gender === 'male' ? '♂' : '♀'}
            </span>
            {gender === 'male' ? 'Male' : 'Female'}
          </button>
        ))}
        <button type="button" className="match-tile" aria-pressed={value === null} onClick={() => onChange(null)}>
          <span className="match-tile__symbol" aria-hidden="true">
            ⚥
          </span>
          Any
        </button>
      </div>
      <p className="match-wizard__note">{MATCHING_TEXTS.genderNote}</p>
    </>
  );
}

function CountryStep({ value, onChange }: { value: string | null; onChange: (v: string | null) => void }) {
  const detected = useAppSelector(selectCurrentUser)?.country ?? null;
  const [search, setSearch] = useState('');
  const [debounced, setDebounced] = useState('');
  // spec 2: the search is debounced 250 ms.
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(search), 250);
    return () => clearTimeout(timer);
  }, [search]);
  const countries = useMemo(() => countryList(debounced, detected), [debounced, detected]);
  return (
    <>
      <Input
        type="search"
        label="Search countries"
        hideLabel
        startIcon={<Search />}
        placeholder={MATCHING_TEXTS.countrySearch}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      <ul className="match-countries" aria-label="Countries">
        {!debounced && (
          <li>
            <button
              type="button"
              className="match-country"
              aria-pressed={value === null}
              onClick={() => onChange(null)}
            >
              <Globe aria-hidden="true" className="match-country__any" />
              <span className="match-country__name">Any country</span>
              {value === null && <Check aria-hidden="true" className="match-country__check" />}
            </button>
          </li>
        )}
        {countries.map((country) => (
          <li key={country.code}>
            <button
              type="button"
              className="match-country"
              aria-pressed={value === country.code}
              onClick={() => onChange(value === country.code ? null : country.code)}
            >
              <Flag code={country.code} decorative />
              <span className="match-country__name">{country.name}</span>
              {country.code === detected && <span className="match-country__detected">{MATCHING_TEXTS.detected}</span>}
              {value === country.code && <Check aria-hidden="true" className="match-country__check" />}
            </button>
          </li>
        ))}
        {countries.length === 0 && <li className="match-countries__none">No country matches "{debounced}".</li>}
      </ul>
    </>
  );
}

function AgeStep({ value, onChange }: { value: [number, number]; onChange: (v: [number, number]) => void }) {
  return (
    <div className="match-age">
      <div className="match-age__head">
        <p className="match-age__value" aria-live="polite">
          {isAnyAge(value) ? 'Any age' : `${value[0]} - ${value[1]} years`}
        </p>
        <Button variant="quiet" size="sm" aria-pressed={isAnyAge(value)} onClick={() => onChange(ANY_AGE)}>
          Any
        </Button>
      </div>
      <Slider
        min={MATCH_AGE.min}
        max={MATCH_AGE.max}
        step={1}
        minStepsBetweenThumbs={0}
        value={value}
        onValueChange={(v) => onChange([v[0]!, v[1]!])}
        thumbLabels={['Minimum age', 'Maximum age']}
      />
      <div className="match-age__ends" aria-hidden="true">
        <span>{MATCH_AGE.min}</span>
        <span>{MATCH_AGE.max}</span>
      </div>
    </div>
  );
}
