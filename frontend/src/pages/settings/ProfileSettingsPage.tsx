import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { ProfileForm } from '../../features/profile/ProfileForm';
import { useDocumentTitle } from '../../shared/use-document-title';
import { Card } from '../../ui/Card';
import './profile-settings.css';

/** `/settings/profile` (spec 2 "Profile settings screen"): the profile form on a page of its own. */
export function ProfileSettingsPage() {
  useDocumentTitle('Profile');
  return (
    <section className="profile-settings" aria-labelledby="profile-settings-title">
      <Link className="profile-settings__back" to="/settings">
        <ArrowLeft aria-hidden="true" />
        Settings
      </Link>
      <header className="profile-settings__header">
        <h1 id="profile-settings-title" className="profile-settings__title">
          Profile
        </h1>
        <p className="profile-settings__intro">Your picture, name, phone number and bio.</p>
      </header>
      <Card className="profile-settings__card">
        <ProfileForm headingLevel={2} />
      </Card>
    </section>
  );
}
