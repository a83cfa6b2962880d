import { Link } from 'react-router';
import { CompanyName, SupportEmailLink } from './config-text';
import { StaticPage, type StaticSection } from './StaticPage';
import { STATIC_PAGE_PATHS } from './static-pages';

// spec 2: eligibility 18+, account registration, use of the platform, community guidelines, intellectual
// property, disclaimer, liability, indemnification, termination, changes, contact.
const SECTIONS: readonly StaticSection[] = [
  {
    id: 'eligibility',
    title: 'Eligibility (18+)',
    content: (
      <>
        <p>
          Serendip is for adults only. You may use it only if you are <strong>at least 18 years old</strong> and old
          enough to enter a binding contract where you live, and only if the law that applies to you does not forbid it.
        </p>
        <p>
          By creating an account you confirm that the birth date you give is your real one. If we learn or have good
          reason to believe that an account belongs to someone under 18, we suspend it immediately and delete it. If you
          meet someone on Serendip who seems to be under 18, end the call and report them with the reason “Underage
          user”.
        </p>
      </>
    ),
  },
  {
    id: 'account-registration',
    title: 'Account registration',
    content: (
      <>
        <p>
          You register with an e-mail address and a password and then complete your profile (name, gender, birth date
          and a profile picture). You agree to:
        </p>
        <ul>
          <li>give accurate information and keep it up to date;</li>
          <li>keep one personal account, and not share, sell or transfer it;</li>
          <li>
            keep your password secret, and tell us at once at <SupportEmailLink /> if you think someone else has used
            your account.
          </li>
        </ul>
        <p>
          You are responsible for what happens under your account. To protect it you can turn on two-factor sign-in (a
          one-time code sent to your e-mail each time you sign in) and review or sign out the devices listed under{' '}
          <em>Devices and Activities</em> in your security settings. You can delete your account at any time from your
          account settings.
        </p>
      </>
    ),
  },
  {
    id: 'use-of-the-platform',
    title: 'Use of the platform',
    content: (
      <>
        <p>
          Serendip pairs you at random with another adult for a live one-to-one video call with text chat. You can set
          preferences (gender, country and age range), skip to the next person, leave matching at any time, and report a
          partner who breaks the rules. Preferences narrow the pairing; they do not guarantee who you meet.
        </p>
        <p>You may use Serendip only for personal, non-commercial purposes. You must not:</p>
        <ul>
          <li>record, capture or share another person’s video, audio or messages without their consent;</li>
          <li>advertise, sell, recruit or promote anything, or send spam;</li>
          <li>use bots, scripts, scrapers or other automated means to access or use the platform;</li>
          <li>
            interfere with the service or its security: probing, overloading, bypassing restrictions or getting around a
            ban with another account;
          </li>
          <li>break any law, or help anyone else do so.</li>
        </ul>
        <p>
          Your browser asks for permission before Serendip can use your camera and microphone. You can switch either of
          them off during a call; your partner sees that it is off.
        </p>
      </>
    ),
  },
  {
    id: 'community-guidelines',
    title: 'Community guidelines',
    content: (
      <>
        <p>
          The <Link to={STATIC_PAGE_PATHS.communityGuidelines}>Community Guidelines</Link> are part of these terms. In
          short: be 18 or older, be honest about your age and identity, use a first profile picture that shows your full
          face, never show or send explicit, violent, hateful or scam content, and do not automate your use of Serendip.
        </p>
        <p>
          When you break these terms or the guidelines we may warn you, restrict your account for a time, or ban it, as
          described in the <Link to={STATIC_PAGE_PATHS.penaltySystem}>Penalty System</Link>. Reports must be made in
          good faith: knowingly false reports may lead to action against the person who made them.
        </p>
      </>
    ),
  },
  {
    id: 'intellectual-property',
    title: 'Intellectual property',
    content: (
      <>
        <p>
          The Serendip name, logo, interface, software and texts belong to <CompanyName /> or its licensors and are
          protected by law. These terms give you a personal, revocable, non-transferable right to use the platform as
          offered; they give you no other right in it.
        </p>
        <p>
          You keep the rights you have in what you share, such as your profile pictures, bio and comments. You give us a
          worldwide, royalty-free licence to host, store, display and process that content only as needed to run and
          moderate Serendip; the licence ends when the content or your account is deleted, except where we must keep
          something for a reason given in the <Link to={STATIC_PAGE_PATHS.privacyPolicy}>Privacy Policy</Link>. Only
          share content you have the right to share.
        </p>
      </>
    ),
  },
  {
    id: 'disclaimer',
    title: 'Disclaimer',
    content: (
      <>
        <p>
          Serendip is provided “as is” and “as available”. We work to keep it running and safe, but we do not promise
          that it will always be available, uninterrupted or free of errors, or that a match will be found.
        </p>
        <p>
          The people you meet are strangers. We do not run background checks and we cannot see or screen every live call
          in advance, so we are not responsible for what other users say, show or do. Use your judgement: do not share
          personal details such as your address, workplace or financial information, and leave any call that makes you
          uncomfortable.
        </p>
      </>
    ),
  },
  {
    id: 'liability',
    title: 'Limitation of liability',
    content: (
      <>
        <p>
          To the extent the law allows, <CompanyName /> is not liable for indirect, incidental, special or consequential
          losses, for loss of data, profits or goodwill, or for the conduct of other users. Our total liability for any
          claim about Serendip is limited to the amount you paid us in the twelve months before the claim, or 100 euros
          if you paid nothing.
        </p>
        <p>
          Nothing in these terms limits liability that cannot be limited by law, such as liability for death or personal
          injury caused by negligence, for fraud, or your statutory rights as a consumer.
        </p>
      </>
    ),
  },
  {
    id: 'indemnification',
    title: 'Indemnification',
    content: (
      <p>
        If someone makes a claim against <CompanyName /> because of content you shared, the way you used Serendip or
        your breach of these terms or of the law, you agree to cover the reasonable losses and costs, including legal
        fees, that result. We will tell you about the claim promptly and let you take part in the defence. This does not
        apply where the law does not allow it or where the claim results from our own fault.
      </p>
    ),
  },
  {
    id: 'termination',
    title: 'Termination',
    content: (
      <>
        <p>
          You may stop using Serendip and delete your account at any time. When you do, your personal data is erased as
          described in the <Link to={STATIC_PAGE_PATHS.privacyPolicy}>Privacy Policy</Link>.
        </p>
        <p>
          We may restrict, suspend or close an account that breaks these terms or the Community Guidelines, puts others
          at risk, or must be closed by law. Restrictions follow the{' '}
          <Link to={STATIC_PAGE_PATHS.penaltySystem}>Penalty System</Link>; severe violations can lead to immediate
          suspension. A restricted account sees the reason, the date and, for a timed restriction, when it ends, and may
          submit one appeal for each ban.
        </p>
        <p>
          Sections that by their nature should survive the end of your account, including intellectual property,
          disclaimer, limitation of liability and indemnification, continue to apply.
        </p>
      </>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    content: (
      <p>
        We may update these terms as Serendip changes or the law requires. The effective date at the top of this page
        shows when they last changed. If a change materially affects you, we will tell you in the app or by e-mail
        before it takes effect. If you keep using Serendip after that, the new terms apply; if you do not agree, you can
        delete your account.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    content: (
      <p>
        Questions about these terms? Write to <CompanyName /> at <SupportEmailLink />.
      </p>
    ),
  },
];

function Terms({ path, canonicalPath }: { path: string; canonicalPath?: string }) {
  return (
    <StaticPage
      area="Legal"
      title="Terms of Use"
      description="The rules for using Serendip, random one-to-one video chat for adults: eligibility (18+), your account, acceptable use, liability and termination."
      path={path}
      canonicalPath={canonicalPath}
      intro={
        <p>
          These Terms of Use are an agreement between you and <CompanyName /> (“we”, “us”), which operates Serendip, a
          random one-to-one video chat for adults. By creating an account or using Serendip you accept them. Please read
          them together with our <Link to={STATIC_PAGE_PATHS.privacyPolicy}>Privacy Policy</Link> and{' '}
          <Link to={STATIC_PAGE_PATHS.cookies}>Cookie Policy</Link>.
        </p>
      }
      sections={SECTIONS}
    />
  );
}

export function TermsOfUsePage() {
  return <Terms path={STATIC_PAGE_PATHS.termsOfUse} />;
}

/** spec 2: the security center links to the terms of service, which are the terms of use under another path. */
export function TermsOfServicePage() {
  return <Terms path={STATIC_PAGE_PATHS.termsOfUse} canonicalPath={STATIC_PAGE_PATHS.termsOfUse} />;
}
