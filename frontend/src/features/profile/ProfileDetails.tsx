import type { UserInfo } from '@serendip/proto';
import { Lock, MapPin } from 'lucide-react';
import { useId, useState } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { logError } from '../../shared/log';
import { Button } from '../../ui/Button';
import { userUpdated } from '../auth/session.slice';
import { type ProfileApi, profileApi } from './profile-api';
import { ageOf, ageSentence, birthDateLabel, countryLabel, genderLabel, shownOrUnknown } from './profile-display';
import './profile.css';

export type HeadingLevel = 2 | 3 | 4;

interface ProfileDetailsProps {
  user: UserInfo;
  headingLevel: HeadingLevel;
  api?: Pick<ProfileApi, 'updateLocation'>;
}

/** spec 2: what the user cannot change here, with their age, and a manual location update (spec 4). */
export function ProfileDetails({ user, headingLevel, api = profileApi }: ProfileDetailsProps) {
  const dispatch = useAppDispatch();
  const [locating, setLocating] = useState(false);
  const Heading = `h${headingLevel}` as const;
  const headingId = useId();

  const updateLocation = async () => {
    setLocating(true);
    try {
      dispatch(userUpdated(await api.updateLocation()));
    } catch (error) {
      // spec 8: geolocation failures are only logged.
      logError('Location update failed', error);
    } finally {
      setLocating(false);
    }
  };

  const details: [term: string, value: string][] = [
    ['Username', shownOrUnknown(user.username)],
    ['Country', countryLabel(user.country)],
    ['City', shownOrUnknown(user.city)],
    ['Gender', genderLabel(user.gender)],
    ['Birth date', birthDateLabel(user.userBirthDate)],
  ];

  return (
    <section className="profile-details" aria-labelledby={headingId}>
      <Heading id={headingId} className="profile-form__heading">
        Account details
      </Heading>
      <p className="profile-details__note">
        <Lock aria-hidden="true" />
        The following information cannot be updated.
      </p>
      <dl className="profile-details__list">
        {details.map(([term, value]) => (
          <div key={term} className="profile-details__item">
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="profile-details__age">{ageSentence(ageOf(user, new Date()))}</p>
      <Button variant="quiet" size="sm" busy={locating} onClick={() => void updateLocation()}>
        <MapPin aria-hidden="true" />
        Update location
      </Button>
    </section>
  );
}
