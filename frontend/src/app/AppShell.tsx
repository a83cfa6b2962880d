import { Link, Outlet } from 'react-router';
import { selectIsBooting } from '../features/boot/boot.selectors';
import { CookieBanner } from '../features/consent/CookieBanner';
import { AccountNav, SignedInMobileNav } from '../features/navigation/AccountNav';
import { Toasts } from '../shared/toasts/Toasts';
import { BrandMark } from '../shared/ui/BrandMark';
import { LoadingOverlay } from '../shared/ui/LoadingOverlay';
import { Footer } from './Footer';
import { useAppSelector } from './hooks';

/**
 * The frame of every page; until boot has finished only the loading overlay is shown. `bare` leaves the frame to the
 * pages (the admin dashboard has its own sidebar and header).
 */
export function AppShell({ bare = false }: { bare?: boolean }) {
  const booting = useAppSelector(selectIsBooting);
  return (
    <>
      {booting ? <LoadingOverlay word="INITIALIZING" /> : bare ? <Outlet /> : <Shell />}
      {/* Up while the overlay shows too, and in one place so boot ending does not remount it. */}
      <Toasts />
    </>
  );
}

function Shell() {
  return (
    <div className="shell">
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
          <AccountNav />
        </div>
      </header>
      <main id="main" className="shell__main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      <SignedInMobileNav />
      <CookieBanner />
    </div>
  );
}
