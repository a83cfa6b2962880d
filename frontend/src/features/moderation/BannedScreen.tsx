import type { BanRecordView, UserInfo } from '@serendip/proto';
import { History, LogOut, ShieldAlert } from 'lucide-react';
import { DeleteAccount } from '../account/DeleteAccount';
import '../account/account.css';
import { type ReactNode, useCallback, useEffect } from 'react';
import { Link } from 'react-router';
import { useAppDispatch } from '../../app/hooks';
import { useDocumentTitle } from '../../shared/use-document-title';
import { Button, buttonClassName } from '../../ui/Button';
import { Card, CardFooter, CardHeader, CardTitle } from '../../ui/Card';
import { Spinner } from '../../ui/Spinner';
import { logoutRequested } from '../auth/session.slice';
import { AppealSection } from './AppealSection';
import { AppealStatusBadge } from './AppealStatusBadge';
import { BanCountdown } from './BanCountdown';
import { bannedByName, formatBanDate } from './ban-display';
import { moderationApi } from './moderation-api';
import { BANNED_SCREEN_TEXTS as T } from './moderation-messages';
import { BAN_HISTORY_PATH } from './moderation-routes';
import { banMayHaveEnded } from './moderation.actions';
import { SupportEmail, WithSupportEmail } from './SupportContact';
import { useBanInfo } from './use-ban-info';
import './banned-screen.css';

/**
 * After the countdown ends, the server's scheduled check (every 5 s, moderation's expire-bans) needs a moment to end
 * the ban before we ask; its banStatusUpdated push usually lifts the screen first.
 */
export const AFTER_EXPIRY_RECHECK_MS = 6_000;

/**
 * spec 2 "Banned-account screen": in place of every guarded page while the user is banned. It calls only what the
 * server still answers a banned account (ban info, the appeal); the header keeps the user menu, and the screen has
 * its own way out (Log Out) and to the ban history.
 */
export function BannedScreen({ user }: { user: UserInfo }) {
  useDocumentTitle(T.title);
  const dispatch = useAppDispatch();
  const { load, appealed } = useBanInfo(moderationApi, user._id, user);
  const firstName =
    user.firstName ?? (load.state === 'loaded' ? load.ban.bannedUser.firstName : null) ?? user.emailAddress;

  const countdownEnded = useCallback(() => dispatch(banMayHaveEnded({ delayMs: AFTER_EXPIRY_RECHECK_MS })), [dispatch]);
  const noBanFound = load.state === 'no-ban';
  useEffect(() => {
    // The server has no ban on: user info will say so too, and the guard lets the user back in.
    if (noBanFound) dispatch(banMayHaveEnded({ delayMs: 0 }));
  }, [noBanFound, dispatch]);

  return (
    <section className="banned-screen" aria-labelledby="banned-title">
      <div className="banned-screen__intro">
        <span className="banned-screen__icon" aria-hidden="true">
          <ShieldAlert />
        </span>
        <h1 id="banned-title" className="banned-screen__title">
          {T.title}
        </h1>
        <p className="banned-screen__greeting">
          Hi {firstName}, your account has been restricted for breaking our Community Guidelines. While the restriction
          is on, you can't match or use the rest of Serendip.
        </p>
      </div>

      {load.state === 'loading' || noBanFound ? (
        <div className="banned-screen__loading">
          <Spinner size="lg" label="Checking your ban status" />
        </div>
      ) : load.state === 'failed' ? (
        <Card className="banned-card banned-card--error" role="alert">
          <CardHeader>
            <CardTitle>{T.errorTitle}</CardTitle>
          </CardHeader>
          <p className="banned-card__text">
            <WithSupportEmail text={T.loadFailed} />
          </p>
          <BannedFooter />
        </Card>
      ) : (
        <Card className="banned-card" glow>
          <CardHeader>
            <CardTitle>{T.statusCard}</CardTitle>
          </CardHeader>
          <BanStatus ban={load.ban} onCountdownEnded={countdownEnded} />
          <AppealSection userId={user._id} status={load.ban.appealStatus} api={moderationApi} onAppealed={appealed} />
          <p className="banned-card__support">
            Questions about this decision? Contact us at <SupportEmail /> and include your case ID.
          </p>
          <BannedFooter />
        </Card>
      )}
      {/* Deleting one's account is a right a ban does not take away (the privacy policy): the rest of Settings is shut. */}
      {load.state === 'loaded' && (
        <div className="banned-screen__delete">
          <DeleteAccount />
        </div>
      )}
    </section>
  );
}

function BanStatus({ ban, onCountdownEnded }: { ban: BanRecordView; onCountdownEnded: () => void }) {
  return (
    <dl className="banned-status">
      <Row label="Case ID">
        <code>{ban.caseId}</code>
      </Row>
      <Row label="Reason">{ban.reason}</Row>
      <Row label="Banned by">{ban.bannedByWho ? bannedByName(ban.bannedByWho) : T.unknownBanner}</Row>
      <Row label="Appeal Status">
        <AppealStatusBadge status={ban.appealStatus} />
      </Row>
      <Row label="Ban date">{formatBanDate(ban.banDate)}</Row>
      <Row label="Expiry">{ban.expiryDate ? formatBanDate(ban.expiryDate) : T.permanent}</Row>
      {ban.expiryDate && (
        <Row label="Time left">
          <BanCountdown expiryDate={ban.expiryDate} onExpired={onCountdownEnded} />
        </Row>
      )}
    </dl>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="banned-status__row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function BannedFooter() {
  const dispatch = useAppDispatch();
  return (
    <CardFooter className="banned-card__footer">
      <Link className={buttonClassName({ variant: 'ghost', size: 'sm' })} to={BAN_HISTORY_PATH}>
        <History aria-hidden="true" size={16} /> Ban History
      </Link>
      <Button variant="ghost" size="sm" onClick={() => dispatch(logoutRequested())}>
        <LogOut aria-hidden="true" size={16} /> Log Out
      </Button>
    </CardFooter>
  );
}
