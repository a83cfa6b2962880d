import { useState } from 'react';
import { Link, Outlet } from 'react-router';
import { selectIsBooting } from '../features/boot/boot.selectors';
import { CookieBanner } from '../features/consent/CookieBanner';
import { AccountNav, SignedInMobileNav } from '../features/navigation/AccountNav';
import { ForcedNotifications } from '../features/notifications/ForcedNotifications';
import { HeaderBell } from '../features/notifications/HeaderBell';
import { Toasts } from '../shared/toasts/Toasts';
import { BrandMark } from '../shared/ui/BrandMark';
import { LoadingOverlay } from '../shared/ui/LoadingOverlay';
import { Footer } from './Footer';
import { useAppSelector } from './hooks';
import { type ShellFrame, ShellFrameContext } from './shell-frame';

/**
 * The frame of every page; until boot has finished only the loading overlay is shown. `bare` leaves the frame to the
 * pages (the admin dashboard has its own sidebar and header).
 */
export function AppShell({ bare = false }: { bare?: boolean }) {
  const booting = useAppSelector(selectIsBooting);
  return (
    <>
      {booting ? <LoadingOverlay word="INITIALIZING" /> : bare ? <Outlet /> : <Shell />}
      {/* spec 2 "Global overlays": over every page, the dashboard's too. */}
      {!booting && <ForcedNotifications />}
      {/* Up while the overlay shows too, and in one place so boot ending does not remount it. */}
      <Toasts />
    </>
  );
}

/**
 * The call frame (asked for by the call view, shell-frame.ts) has no footer and no phone bottom bar; CSS hides the
 * header on a phone too, so the call has the whole screen.
 */
function Shell() {
  const [frame, setFrame] = useState<ShellFrame>('page');
  const inCall = frame === 'call';
  return (
    <ShellFrameContext.Provider value={setFrame}>
      <div className={inCall ? 'shell shell--call' : 'shell'}>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="shell__header">
          <Link className="brand" to="/" aria-label="Serendip home">
            <BrandMark size={28} />
            <span className="brand__name">Serendip</span>
          </Link>
          <div className="shell__header-end">
            <span className="shell__badge" title="For adults only">
              18+
            </span>
            <HeaderBell />
            <AccountNav />
          </div>
        </header>
        <main id="main" className="shell__main" tabIndex={-1}>
          <Outlet />
        </main>
        {!inCall && <Footer />}
        {!inCall && <SignedInMobileNav />}
        <CookieBanner />
      </div>
    </ShellFrameContext.Provider>
  );
}
