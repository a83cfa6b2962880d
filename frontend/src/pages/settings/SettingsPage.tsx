import { ChevronRight, KeyRound, UserRound } from 'lucide-react';
import { lazy, Suspense, useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ACCOUNT_TAB_PARAM, type AccountTab, isAccountTab } from '../../features/account/account-tabs';
import { notificationSoundsOn, setNotificationSounds } from '../../features/notifications/notification-sounds';
import { useDocumentTitle } from '../../shared/use-document-title';
import { Card } from '../../ui/Card';
import { Spinner } from '../../ui/Spinner';
import { Switch } from '../../ui/Switch';
import './settings.css';

/** spec 2 "Profile settings screen". */
const PROFILE_SETTINGS_PATH = '/settings/profile';

// Its own chunk (forms, the session list and its user-agent parser), fetched when the dialog first opens.
const AccountSettingsDialog = lazy(() =>
  import('../../features/account/AccountSettingsDialog').then((module) => ({ default: module.AccountSettingsDialog })),
);

/**
 * `/settings`: the profile settings screen and the account settings dialog (spec 2). The dialog's open tab lives in
 * the URL, `/settings?tab=general|profile|security`, so it can be linked to; closing it drops the parameter.
 */
export function SettingsPage() {
  useDocumentTitle('Settings');
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get(ACCOUNT_TAB_PARAM);
  const tab = isAccountTab(requested) ? requested : null;
  // The last tab shown: the dialog stays mounted with it after closing, to fade out and to open again at once.
  const [shownTab, setShownTab] = useState<AccountTab | null>(tab);
  if (tab && tab !== shownTab) setShownTab(tab);
  const accountButton = useRef<HTMLButtonElement>(null);
  const ids = { profileTitle: useId(), profileText: useId(), accountTitle: useId(), accountText: useId() };

  const showTab = (next: AccountTab | null) =>
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        if (next) params.set(ACCOUNT_TAB_PARAM, next);
        else params.delete(ACCOUNT_TAB_PARAM);
        return params;
      },
      // Switching tabs or closing is not a page of its own to go back to.
      { replace: true },
    );

  return (
    <section className="settings" aria-labelledby="settings-title">
      <h1 id="settings-title" className="settings__title">
        Settings
      </h1>
      <p className="settings__intro">Your profile, your sign-in and the devices you use Serendip on.</p>
      <ul className="settings__cards">
        <li>
          <Card asChild interactive className="settings-card">
            <Link to={PROFILE_SETTINGS_PATH} aria-labelledby={ids.profileTitle} aria-describedby={ids.profileText}>
              <span className="settings-card__icon" aria-hidden="true">
                <UserRound focusable="false" />
              </span>
              <span className="settings-card__body">
                <span id={ids.profileTitle} className="settings-card__title">
                  Profile settings
                </span>
                <span id={ids.profileText} className="settings-card__text">
                  Your picture, name, phone number and bio.
                </span>
              </span>
              <ChevronRight className="settings-card__chevron" aria-hidden="true" focusable="false" />
            </Link>
          </Card>
        </li>
        <li>
          <Card asChild interactive className="settings-card">
            <button
              ref={accountButton}
              type="button"
              aria-haspopup="dialog"
              aria-labelledby={ids.accountTitle}
              aria-describedby={ids.accountText}
              onClick={() => showTab('general')}
            >
              <span className="settings-card__icon" aria-hidden="true">
                <KeyRound focusable="false" />
              </span>
              <span className="settings-card__body">
                <span id={ids.accountTitle} className="settings-card__title">
                  Account settings
                </span>
                <span id={ids.accountText} className="settings-card__text">
                  E-mail, password, two-factor sign-in, hiding your IP address in calls, and the devices signed in to
                  your account.
                </span>
              </span>
              <ChevronRight className="settings-card__chevron" aria-hidden="true" focusable="false" />
            </button>
          </Card>
        </li>
      </ul>
      <NotificationSoundsSetting />
      {shownTab && (
        <Suspense fallback={<Spinner className="settings__loading" label="Opening account settings" />}>
          <AccountSettingsDialog
            open={tab !== null}
            onOpenChange={(open) => {
              if (!open) showTab(null);
            }}
            tab={tab ?? shownTab}
            onTabChange={showTab}
            returnFocusTo={accountButton}
          />
        </Suspense>
      )}
    </section>
  );
}

/** spec 4: each live notification plays a sound; this browser can turn them off (kept in localStorage). */
function NotificationSoundsSetting() {
  const [on, setOn] = useState(notificationSoundsOn);
  return (
    <Card className="settings-switch">
      <Switch
        label="Notification sounds"
        description="A short chime when a notification arrives."
        checked={on}
        onCheckedChange={(checked) => {
          setOn(checked);
          setNotificationSounds(checked);
        }}
      />
    </Card>
  );
}
