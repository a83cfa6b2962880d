import { Link } from 'react-router';
import { ComingSoon } from '../../shared/ui/ComingSoon';

/**
 * `/settings`, where the user menu's Settings leads. TODO(profile and account issue): the account settings with its
 * General, Profile and Security tabs replaces this page.
 */
export function SettingsPage() {
  return (
    <ComingSoon page="Settings" title="Settings are coming soon">
      Soon you will edit your profile, your e-mail and password, and your devices here. Until then, your{' '}
      <Link to="/security-center">Security Center</Link> is open.
    </ComingSoon>
  );
}
