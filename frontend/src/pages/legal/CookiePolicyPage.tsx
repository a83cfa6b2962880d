import { Link } from 'react-router';
import { SupportEmailLink } from './config-text';
import { StaticPage, type StaticSection } from './StaticPage';
import { StaticTable } from './StaticTable';
import { STATIC_PAGE_PATHS } from './static-pages';

// spec 2: essential, analytics, preference and advertising cookies; first-party and third-party; consent;
// managing cookies. spec 9: the cookies are accessToken and refreshToken (the README names how their paths and
// names differ from the spec's).
const SECTIONS: readonly StaticSection[] = [
  {
    id: 'what-are-cookies',
    title: 'What cookies are',
    content: (
      <p>
        Cookies are small text files a website asks your browser to keep and send back with each request. Websites can
        also keep data in your browser’s <strong>local storage</strong>, which stays on your device and is not sent with
        requests. This policy covers both, and says honestly which ones Serendip uses today: only a few, all set by
        Serendip itself, none for tracking or advertising.
      </p>
    ),
  },
  {
    id: 'essential',
    title: 'Essential cookies',
    content: (
      <>
        <p>
          These keep you signed in and the service secure. Serendip cannot work without them, so they do not need your
          consent. All three are HttpOnly (scripts in the page cannot read them) and are sent only to Serendip
          (SameSite=Lax), the refresh token only to the one address that renews your session and the device cookie only
          to the sign-in and session addresses. On HTTPS they go only over encrypted connections, named{' '}
          <code>__Host-accessToken</code>, <code>__Secure-refreshToken</code> and <code>__Secure-device</code> so that
          no other site can set them.
        </p>
        <StaticTable
          caption="Essential cookies set by Serendip"
          columns={['Cookie', 'What it does', 'How long it lasts']}
          rows={[
            [
              <code key="name">accessToken</code>,
              'Proves that requests come from your signed-in session.',
              '15 minutes; renewed automatically while you use Serendip.',
            ],
            [
              <code key="name">refreshToken</code>,
              'Gets a new access token so you stay signed in. It is replaced on every use, and a copied one ends the session.',
              'Until you sign out, or at most 30 days after you sign in.',
            ],
            [
              <code key="name">device</code>,
              'Recognises this browser as one you signed in from, so failed sign-in attempts made elsewhere cannot lock you out here. It holds a random number and nothing about you.',
              '400 days after your last sign-in here.',
            ],
          ]}
        />
        <p>We also keep a few essential entries in your browser’s local storage:</p>
        <StaticTable
          caption="Essential entries in local storage"
          columns={['Entry', 'What it does', 'How long it lasts']}
          rows={[
            [
              'Cookie notice',
              'Remembers that you accepted the cookie notice, so it is not shown again.',
              'Until you clear this site’s data.',
            ],
            [
              'Session hint',
              'Remembers that this browser may be signed in, so Serendip only checks your session when there could be one. It holds no token and no personal data.',
              'Until you sign out.',
            ],
            [
              'Report draft',
              'Holds a report you are writing (reason, severity, details, screenshot) in your browser until you submit or discard it, so a reload does not lose it. The screenshot itself is uploaded when it is taken and deleted after an hour unless you send the report.',
              'Until you submit or close the report.',
            ],
          ]}
        />
      </>
    ),
  },
  {
    id: 'analytics',
    title: 'Analytics cookies',
    content: (
      <p>
        Analytics cookies count visits and show how people use a site. <strong>Serendip uses none.</strong> We learn
        what we need to keep the service running from our own server records, without cookies or third-party analytics
        tools. If that ever changes, we will update this policy and ask for your consent first.
      </p>
    ),
  },
  {
    id: 'preference',
    title: 'Preference cookies',
    content: (
      <>
        <p>
          Preference cookies remember choices you made. Serendip sets no preference cookies; the choices it remembers
          stay in your browser’s local storage and are never sent to us:
        </p>
        <ul>
          <li>
            <strong>Camera and microphone</strong>: whether you switched them on or off, so your next call starts the
            way you left it. Kept until you clear this site’s data.
          </li>
          <li>
            <strong>Match preferences</strong>: the gender, country and age range you last chose, so the next search
            starts from them. Kept until you sign out.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'advertising',
    title: 'Advertising cookies',
    content: (
      <p>
        Advertising cookies follow you across websites to build a profile and show you targeted ads.{' '}
        <strong>Serendip uses none</strong>: there are no ads on Serendip, no advertising networks and no cross-site
        tracking. We would not add them without telling you here first and asking for your explicit consent.
      </p>
    ),
  },
  {
    id: 'first-and-third-party',
    title: 'First-party and third-party cookies',
    content: (
      <>
        <p>
          <strong>First-party</strong> cookies are set by the site you are visiting; <strong>third-party</strong>{' '}
          cookies are set by another company, such as an analytics or advertising provider, through that site.
        </p>
        <p>
          Every cookie and storage entry on this page is first-party: Serendip sets no third-party cookies and embeds no
          third-party trackers. If you follow a link from Serendip to another website, such as one of our social pages,
          that website’s own cookie policy applies there.
        </p>
      </>
    ),
  },
  {
    id: 'consent',
    title: 'Your consent',
    content: (
      <>
        <p>
          On your first visit a notice says that we use cookies to provide a better user experience, with a link to our{' '}
          <Link to={STATIC_PAGE_PATHS.privacyPolicy}>Privacy Policy</Link>. When you select <strong>Accept</strong>,
          your acceptance is saved in your browser’s local storage and the notice goes away.
        </p>
        <p>
          Because the cookies and storage Serendip uses today are essential or stay on your device, the law does not
          require your consent for them; the notice is there so you know. If we ever add optional cookies, they will
          stay off until you agree to them, and you will be able to withdraw that consent as easily as you gave it.
        </p>
      </>
    ),
  },
  {
    id: 'managing-cookies',
    title: 'Managing cookies',
    content: (
      <>
        <p>
          Your browser’s settings let you see, delete and block cookies and site data, for all websites or for Serendip
          alone. Look for “Cookies and site data” or “Privacy” in the settings menu.
        </p>
        <ul>
          <li>
            Blocking Serendip’s essential cookies means you cannot sign in; the rest of the public site still works.
          </li>
          <li>
            Clearing Serendip’s site data signs you out, discards an unsent report, forgets your camera and microphone
            choices and shows the cookie notice again.
          </li>
          <li>A private or incognito window discards all of this when you close it.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    content: (
      <p>
        When we change the cookies or storage we use, we update this page and its effective date first. A new kind of
        optional cookie will always be announced here and asked for before it is used.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    content: (
      <p>
        Questions about cookies or your data? Write to <SupportEmailLink />.
      </p>
    ),
  },
];

function CookiePolicy({ canonicalPath }: { canonicalPath?: string }) {
  return (
    <StaticPage
      area="Legal"
      title="Cookie Policy"
      description="The cookies and browser storage Serendip uses: two essential sign-in cookies, no analytics, no advertising, no third-party cookies, and how to manage them."
      path={STATIC_PAGE_PATHS.cookies}
      canonicalPath={canonicalPath}
      intro={
        <p>
          This policy explains which cookies and similar technologies Serendip uses, why, and how you can control them.
          For everything else about your data, see the <Link to={STATIC_PAGE_PATHS.privacyPolicy}>Privacy Policy</Link>.
        </p>
      }
      sections={SECTIONS}
    />
  );
}

/** spec 2: /legal/cookies, whose canonical link points to a different path. */
export function CookiesPage() {
  return <CookiePolicy canonicalPath={STATIC_PAGE_PATHS.cookiePolicy} />;
}

/** The canonical path itself, so the canonical link never leads to the 404 page. */
export function CookiePolicyPage() {
  return <CookiePolicy />;
}
