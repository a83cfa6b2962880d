import { Link } from 'react-router';
import { CompanyName, SupportEmailLink } from './config-text';
import type { StaticSection } from './StaticPage';
import { STATIC_PAGE_PATHS } from './static-pages';

// spec 2: information collected, how collected, used, shared, retention, user rights of access, correction,
// deletion and objection, security, children under 18, changes, contact.
export const PRIVACY_SECTIONS: readonly StaticSection[] = [
  {
    id: 'information-we-collect',
    title: 'Information we collect',
    content: (
      <>
        <h3>Account and profile</h3>
        <p>
          Your e-mail address and password (we store only a one-way hash of it, never the password itself); your first
          and last name, username, gender, birth date, country and city; and, if you add them, your phone number, bio
          and profile pictures.
        </p>
        <h3>Security and sessions</h3>
        <p>
          For each signed-in device: the IP address, the approximate city and country we derive from it, the browser and
          device type, and when the session started and was last used. You see this list under{' '}
          <em>Devices and Activities</em>. We also keep whether two-factor sign-in is on, and the short-lived codes and
          links we e-mail to you for sign-in, e-mail verification and password resets.
        </p>
        <h3>Matching and calls</h3>
        <p>
          Your matching preferences (gender, country, age range), who you were paired with and when, skips, and the
          feedback you give after a call. During a call, your camera and microphone state (on or off) and a
          connection-quality signal are shared with your partner so the call works.
        </p>
        <p className="static-note">
          We do not record the video or audio of calls, and we do not keep an archive of chat messages. The one
          exception is a report: see below.
        </p>
        <h3>Reports, moderation and appeals</h3>
        <p>
          When someone reports a partner, we keep the reason, the severity, any details they write, the screenshot of
          the call their browser took (without its metadata), who reported whom and when. Opening the report moves the
          call through our media server, which then takes one picture of the reported person’s video itself, so the
          evidence does not rest on the reporter’s word alone; nothing else of the call is recorded. A moderator may
          also have the media server take such a picture of a call it relays, stating why; that too is kept on record.
          We also keep moderation decisions (warnings, bans and their expiry), appeal texts and their outcomes, a record
          of each moderator who looked at a picture, and notices such as removed comments. When an account is banned for
          good, we keep a keyed hash of its e-mail address (not the address) so that it cannot be used for a new
          account.
        </p>
        <h3>Community features</h3>
        <p>Comments, replies and likes you post, and the notifications we send you.</p>
        <h3>Cookies and browser storage</h3>
        <p>
          Two essential sign-in cookies and a few entries in your browser’s local storage, described in the{' '}
          <Link to={STATIC_PAGE_PATHS.cookies}>Cookie Policy</Link>.
        </p>
      </>
    ),
  },
  {
    id: 'how-we-collect',
    title: 'How we collect information',
    content: (
      <ul>
        <li>
          <strong>From you</strong>, when you sign up, complete or edit your profile, set preferences, give feedback,
          post, report someone or appeal a decision.
        </li>
        <li>
          <strong>Automatically</strong>, from your browser and our servers when you use Serendip: IP address, device
          and session details, and the technical events of a call (connected, skipped, ended). Your approximate location
          is looked up in a geo-IP database we run ourselves; no outside service is asked.
        </li>
        <li>
          <strong>From other users</strong>, when they report you or give feedback about a call with you.
        </li>
        <li>
          <strong>From our moderators</strong>, who record their decisions on reports, bans and appeals.
        </li>
      </ul>
    ),
  },
  {
    id: 'how-we-use',
    title: 'How we use information',
    content: (
      <>
        <p>We use your information only to run Serendip and keep it safe, and always on a legal basis:</p>
        <ul>
          <li>
            <strong>To provide the service</strong> (performance of our contract with you): your account, sign-in,
            matching by your preferences, calls, chat, notifications and the e-mails the service needs.
          </li>
          <li>
            <strong>To keep people safe</strong> (our legitimate interest, and yours, in a safe community): checking
            that users are adults, reviewing reports, enforcing the guidelines, handling appeals, and preventing fraud,
            ban evasion and abuse.
          </li>
          <li>
            <strong>To protect accounts</strong> (legitimate interest): sessions, two-factor codes, the device list and
            limits on repeated attempts.
          </li>
          <li>
            <strong>To meet legal obligations</strong>, such as answering a lawful request from an authority.
          </li>
          <li>
            <strong>With your consent</strong>, where the law requires it; you can withdraw consent at any time.
          </li>
        </ul>
        <p>
          We do not sell your data, we do not show advertising, and we do not use your data to build advertising
          profiles. No decision with legal or similarly significant effects on you, such as a ban, is made by automated
          means alone.
        </p>
      </>
    ),
  },
  {
    id: 'how-we-share',
    title: 'How we share information',
    content: (
      <>
        <ul>
          <li>
            <strong>With the person you are matched with:</strong> your first name, age, gender, country flag, your live
            video, audio and messages, whether your camera and microphone are on, and an Administrator badge if you are
            staff. Calls connect your device directly to your partner’s where possible, as video calls usually do, so
            their browser may learn the IP address your connection uses.
          </li>
          <li>
            <strong>With our moderators and administrators</strong>, who see what they need to review reports, bans and
            appeals.
          </li>
          <li>
            <strong>With service providers</strong> that host our servers, store files, relay calls that cannot connect
            directly, and deliver our e-mails. They act on our instructions under data processing agreements. Where they
            process data outside the European Economic Area, we use safeguards the law recognises, such as the European
            Commission’s standard contractual clauses.
          </li>
          <li>
            <strong>When the law requires it</strong>, or when it is necessary to protect someone from serious harm, for
            example to report child sexual abuse material to the competent authorities.
          </li>
          <li>
            <strong>In a business transfer</strong>, if <CompanyName /> or its business is merged or sold; this policy
            keeps applying to your data.
          </li>
        </ul>
        <p>The person you report is not told who reported them.</p>
      </>
    ),
  },
  {
    id: 'retention',
    title: 'How long we keep information',
    content: (
      <>
        <ul>
          <li>
            <strong>Account, profile and activity:</strong> for as long as your account exists.
          </li>
          <li>
            <strong>Sessions:</strong> a sign-in stays valid until you sign out, sign the device out or 30 days have
            passed. The record of it (device, IP address, city, times) stays in your account’s security history.
          </li>
          <li>
            <strong>Sign-in codes and e-mail links:</strong> a sign-in code works once for 10 minutes, a password reset
            link for 30 minutes and a verification link for 24 hours.
          </li>
          <li>
            <strong>Reports, screenshots, bans and appeals:</strong> for as long as needed to handle the report and any
            appeal, and to keep moderation decisions accountable while the account exists. A screenshot that was never
            sent with a report is deleted after an hour; the media server’s pictures after 90 days, unless an open
            report or a ban still needs them.
          </li>
          <li>
            <strong>Server logs:</strong> for a limited period, to find faults and investigate attacks.
          </li>
        </ul>
        <p className="static-note">
          Your personal data is encrypted with a key that belongs to you alone. When you delete your account we destroy
          that key, so your data becomes permanently unreadable everywhere it is stored, backups included. What remains
          (for example, that a call took place) no longer identifies you.
        </p>
        <p>We keep something longer only when the law requires it, and then only for that purpose.</p>
      </>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your rights',
    content: (
      <>
        <p>Under data protection law, including the GDPR, you have the right to:</p>
        <ul>
          <li>
            <strong>Access</strong> the personal data we hold about you and get a copy of it.
          </li>
          <li>
            <strong>Correction</strong>: fix data that is wrong. You can edit your name, phone number, bio and pictures
            in your profile settings; for details you cannot edit yourself, such as birth date or gender, write to us.
          </li>
          <li>
            <strong>Deletion</strong>: delete your account from your account settings, or ask us to erase specific data.
          </li>
          <li>
            <strong>Objection</strong> to processing based on our legitimate interests; we then stop unless we have
            compelling grounds, such as keeping other users safe.
          </li>
          <li>
            <strong>Restriction and portability</strong>: ask us to pause processing while a concern is checked, and
            receive the data you gave us in a machine-readable format.
          </li>
          <li>
            <strong>Withdraw consent</strong> you have given, at any time, without affecting what was done before.
          </li>
        </ul>
        <p>
          To use a right, write to <SupportEmailLink /> from the address on your account. We may ask you to confirm your
          identity, and we answer within one month. You may also complain to the data protection authority where you
          live or work.
        </p>
      </>
    ),
  },
  {
    id: 'security',
    title: 'Security',
    content: (
      <>
        <ul>
          <li>Connections to Serendip are encrypted (HTTPS).</li>
          <li>Passwords are stored only as strong one-way hashes.</li>
          <li>
            Sign-in cookies are HttpOnly, so scripts in the page cannot read them, and sessions can be ended from any of
            your devices.
          </li>
          <li>Optional two-factor sign-in sends a one-time code to your e-mail.</li>
          <li>Personal data is encrypted with a key per person, kept apart from the data itself.</li>
          <li>Staff access is limited to what their role needs, and moderation decisions are recorded.</li>
        </ul>
        <p>
          No system is perfectly secure. If a breach puts your rights at risk, we will tell you and the authorities as
          the law requires.
        </p>
      </>
    ),
  },
  {
    id: 'children',
    title: 'Children under 18',
    content: (
      <p>
        Serendip is only for adults. We do not knowingly collect data from anyone under 18. If we learn that an account
        belongs to a minor, we close it and delete its data, keeping only what the law requires us to keep to protect
        children. If you believe a minor is using Serendip, report them with the reason “Underage user” or write to{' '}
        <SupportEmailLink />.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    content: (
      <p>
        We update this policy when our practices or the law change. The effective date at the top shows the latest
        version. If a change materially affects how we use your data, we will tell you in the app or by e-mail before it
        takes effect.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    content: (
      <p>
        <CompanyName /> is the controller of your personal data on Serendip. For any privacy question or request, write
        to <SupportEmailLink />.
      </p>
    ),
  },
];
