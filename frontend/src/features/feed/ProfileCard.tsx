import type { ReactNode } from 'react';
import { countryNameOf } from '../../shared/country-names';
import { Avatar } from '../../ui/Avatar';
import { Badge } from '../../ui/Badge';
import { Flag } from '../matching/Flag';

interface ProfileCardProps {
  /** The heading: the name the page is about. */
  name: string;
  avatar: string | null;
  age?: number | null;
  /** ISO alpha-2, either case. */
  country?: string | null;
  bio?: string | null;
  isAdmin: boolean;
  /** Links under the facts (Settings on one's own page). */
  children?: ReactNode;
}

/** The head of a profile or peer page: picture, name, the admin badge, age, country with its flag, bio. */
export function ProfileCard({ name, avatar, age, country, bio, isAdmin, children }: ProfileCardProps) {
  const code = country && /^[A-Za-z]{2}$/.test(country) ? country.toLowerCase() : null;
  return (
    <header className="feed-card feed-profile">
      <Avatar name={name} src={avatar} size="xl" decorative />
      <div className="feed-profile__about">
        <h1 className="feed-profile__name">
          {name} {isAdmin && <Badge tone="accent">Administrator</Badge>}
        </h1>
        <p className="feed-profile__facts">
          {typeof age === 'number' && <span>{age} years old</span>}
          {code && (
            <span className="feed-profile__country">
              <Flag code={code} decorative /> {countryNameOf(code)}
            </span>
          )}
        </p>
        {bio?.trim() ? <p className="feed-profile__bio">{bio}</p> : null}
        {children}
      </div>
    </header>
  );
}
