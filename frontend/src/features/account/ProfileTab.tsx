import { lazy, Suspense, useId } from 'react';
import { Spinner } from '../../ui/Spinner';

// The profile form (features/profile, with its phone and upload code) is its own chunk, fetched when this tab opens.
const ProfileForm = lazy(() => import('../profile/ProfileForm').then((module) => ({ default: module.ProfileForm })));

/** spec 2 Profile tab, titled Profile Information. */
export function ProfileTab() {
  const titleId = useId();
  return (
    <section className="account-panel" aria-labelledby={titleId}>
      <h3 id={titleId} className="account-panel__title">
        Profile Information
      </h3>
      <Suspense fallback={<Spinner label="Loading your profile" />}>
        {/* Under this panel's h3. */}
        <ProfileForm headingLevel={4} />
      </Suspense>
    </section>
  );
}
