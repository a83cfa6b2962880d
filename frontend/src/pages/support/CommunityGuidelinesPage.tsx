import { REPORT_WINDOW_HOURS } from '@serendip/proto';
import { Link } from 'react-router';
import { SupportEmailLink } from '../legal/config-text';
import { StaticPage, type StaticSection } from '../legal/StaticPage';
import { STATIC_PAGE_PATHS } from '../legal/static-pages';

// spec 5 (policy text): 18+, no age or identity misrepresentation, first profile picture shows the full face, no
// explicit, violent, hateful or scam content, no automation or scripting; false reports may lead to action
// against the reporter. spec 9 gives the report reasons listed under "How to report"; the rest says what the product
// does with a report (the Report dialog, the server's snapshot, Recent calls, the pair kept apart).
const SECTIONS: readonly StaticSection[] = [
  {
    id: 'adults-only',
    title: 'Adults only (18+)',
    content: (
      <p>
        Everyone on Serendip must be 18 or older. If someone you meet looks or says they are younger, end the call and
        report them with the reason “Underage user”. A moderator reviews the report, and an account found to belong to a
        minor is banned.
      </p>
    ),
  },
  {
    id: 'be-yourself',
    title: 'Be honest about who you are',
    content: (
      <>
        <p>Do not misrepresent your age or your identity. That means:</p>
        <ul>
          <li>your birth date, gender and name on your profile are your own;</li>
          <li>you do not pretend to be someone else, a celebrity, another user or a member of our staff;</li>
          <li>
            you do not use someone else’s photos, a pre-recorded video or a virtual camera that shows another person.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'profile-picture',
    title: 'Your profile picture',
    content: (
      <p>
        Your <strong>first profile picture must show your full face</strong>, clearly and on your own: no sunglasses or
        masks hiding it, no group photos, drawings, logos or pictures of someone else. It helps the people you meet know
        who they are talking to and helps our moderators keep fake accounts out. Further pictures may show anything else
        that respects these guidelines.
      </p>
    ),
  },
  {
    id: 'content',
    title: 'Content that is not allowed',
    content: (
      <>
        <p>Never show, say, send or link to content that is:</p>
        <ul>
          <li>
            <strong>Explicit</strong>: nudity, sexual acts or sexual content of any kind, including on camera.
          </li>
          <li>
            <strong>Violent</strong>: threats, glorifying violence, self-harm content, weapons used to intimidate.
          </li>
          <li>
            <strong>Hateful</strong>: attacks or slurs against people for their race, ethnicity, nationality, religion,
            gender, sexual orientation, disability or any similar trait.
          </li>
          <li>
            <strong>A scam</strong>: asking for money, gifts, payment details or passwords, fake investments, phishing
            links, or luring people to other sites or apps.
          </li>
        </ul>
        <p>
          Harassment, bullying and abuse are not allowed either, on camera or in chat: if someone wants to move on, let
          them. Do not advertise, promote or spam, and do not share anyone’s personal information or record another
          person without their consent.
        </p>
      </>
    ),
  },
  {
    id: 'no-automation',
    title: 'No bots, automation or scripting',
    content: (
      <p>
        Serendip is for real people in real time. Do not use bots, scripts, browser extensions or any other tool to
        automate matching, skipping, messaging or reporting, to collect information about other users, or to get around
        a restriction.
      </p>
    ),
  },
  {
    id: 'how-to-report',
    title: 'How to report someone',
    content: (
      <>
        <p>If a partner breaks these guidelines during a call:</p>
        <ol>
          <li>
            Select <strong>Report</strong> on the call screen.
          </li>
          <li>
            Choose the reason that fits best: inappropriate content, harassment, abuse, spam, self-promotion,
            impersonation, scamming, underage user, or other. Adjust the severity if needed.
          </li>
          <li>
            Serendip takes a screenshot of your partner’s video as evidence as soon as the report opens. You see it
            before you send, and can remove it or capture another.
          </li>
          <li>
            Submit the report. You can then <strong>Skip Conversation</strong> to move on, or leave matching.
          </li>
        </ol>
        <p>
          Calls that run through our servers have a second piece of evidence: the server takes its own snapshot of the
          reported person’s video, so a report does not rest on your screenshot alone. Opening a report moves a direct
          call onto our servers for this. Only moderators can see these pictures.
        </p>
        <p>
          Noticed something only after the call ended? Open <strong>Security Center › Recent calls</strong>: the calls
          of the last {REPORT_WINDOW_HOURS} hours are listed there, and each can be reported once, the same way.
        </p>
        <p>
          You can always skip or leave a call at once, without reporting. For anything that happened outside a call,
          write to <SupportEmailLink />. If someone is in immediate danger, contact your local emergency services first.
        </p>
      </>
    ),
  },
  {
    id: 'after-a-report',
    title: 'What happens after you report',
    content: (
      <>
        <ul>
          <li>You and the person you reported are never matched with each other again.</li>
          <li>
            A moderator reviews the report, its evidence and the account’s record. The person you reported is never told
            who reported them.
          </li>
          <li>
            If the guidelines were broken, the account gets a warning, a restriction or a ban according to the{' '}
            <Link to={STATIC_PAGE_PATHS.penaltySystem}>Penalty System</Link>. Severe cases are suspended at once.
          </li>
          <li>
            A restricted account sees an <strong>Account Restricted</strong> screen with the reason and can appeal the
            decision once.
          </li>
        </ul>
        <p className="static-note">
          Report in good faith. Knowingly false or malicious reports are themselves a violation: a moderator marks such
          a report false, it counts against the person who made it, and it may lead to action against the reporter.
        </p>
      </>
    ),
  },
];

export function CommunityGuidelinesPage() {
  return (
    <StaticPage
      area="Support"
      title="Community Guidelines"
      description="How to behave on Serendip: adults only, be honest about who you are, show your face, no explicit, violent, hateful or scam content, no bots, and how to report."
      path={STATIC_PAGE_PATHS.communityGuidelines}
      intro={
        <p>
          Serendip works when every conversation starts from trust. These guidelines apply to every call, chat, profile
          and comment, and are part of our <Link to={STATIC_PAGE_PATHS.termsOfUse}>Terms of Use</Link>. Breaking them
          can lead to a warning, a restriction or a ban.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
