import type { UserInfo } from '@serendip/proto';
import { useId, useState } from 'react';
import { logError } from '../../shared/log';
import { notify } from '../../shared/toasts/notify';
import { Switch } from '../../ui/Switch';
import { ACCOUNT_MESSAGES } from './account-messages';
import { useAccountServices } from './account-services';
import { ActiveSessions } from './ActiveSessions';

/** spec 2 Security tab, titled Security Settings: the two-factor toggle and the Active Sessions list. */
export function SecurityTab({ user }: { user: UserInfo }) {
  const titleId = useId();
  return (
    <section className="account-panel" aria-labelledby={titleId}>
      <h3 id={titleId} className="account-panel__title">
        Security Settings
      </h3>
      <TwoFactorSetting enabled={user.twoFactorEnabled} />
      <ActiveSessions />
    </section>
  );
}

/** spec 4 "Two-factor toggle": on or off, then a full page reload; spec 8: a failure toasts. */
function TwoFactorSetting({ enabled }: { enabled: boolean }) {
  const { api, reloadPage } = useAccountServices();
  const [checked, setChecked] = useState(enabled);
  const [busy, setBusy] = useState(false);

  async function toggle(next: boolean) {
    setChecked(next);
    setBusy(true);
    try {
      await api.setTwoFactor(next);
    } catch (error) {
      logError('Two-factor change failed', error);
      notify.error(ACCOUNT_MESSAGES.twoFactorFailed);
      setChecked(!next);
      setBusy(false);
      return;
    }
    // Stays busy until the page is gone.
    reloadPage();
  }

  return (
    <div className="account-setting">
      <Switch
        label="Two-factor authentication"
        description="At each sign-in we e-mail you a 6-digit code to enter after your password."
        checked={checked}
        onCheckedChange={(next) => void toggle(next)}
        disabled={busy}
        aria-busy={busy || undefined}
      />
    </div>
  );
}
