import { Link } from 'react-router';
import { SupportEmailLink } from '../legal/config-text';
import { StaticPage, type StaticSection } from '../legal/StaticPage';
import { StaticTable } from '../legal/StaticTable';
import { STATIC_PAGE_PATHS } from '../legal/static-pages';

/** spec 9 (policy text): how many violations count towards the next tier. */
const ESCALATION_WINDOW = '6 months';

// spec 9: first a warning or a short restriction (e.g. 24 hours), second 3 to 7 days, third about 30 days or a
// temporary suspension, repeated violations a permanent ban.
const TIERS = [
  ['First violation', 'A warning, or a short restriction such as 24 hours.'],
  ['Second violation', 'A restriction of 3 to 7 days.'],
  ['Third violation', 'A restriction of about 30 days, or a temporary suspension.'],
  ['Repeated violations', 'A permanent ban.'],
] as const;

const SECTIONS: readonly StaticSection[] = [
  {
    id: 'how-it-works',
    title: 'How the penalty system works',
    content: (
      <>
        <p>
          When an account breaks the <Link to={STATIC_PAGE_PATHS.communityGuidelines}>Community Guidelines</Link> or the{' '}
          <Link to={STATIC_PAGE_PATHS.termsOfUse}>Terms of Use</Link>, a moderator decides what happens next. The
          penalty depends on two things: how serious the violation is, and how many violations the account has had
          recently.
        </p>
        <p>
          Penalties grow step by step. Violations are counted over a rolling window of{' '}
          <strong>{ESCALATION_WINDOW}</strong>: a violation older than that no longer moves an account to a higher tier.
        </p>
      </>
    ),
  },
  {
    id: 'violation-levels',
    title: 'Violation levels',
    content: (
      <>
        <h3>Minor</h3>
        <p>Behaviour that spoils the experience without putting anyone at risk, for example:</p>
        <ul>
          <li>spam or repeated unwanted messages;</li>
          <li>advertising or self-promotion;</li>
          <li>a first profile picture that does not show your full face.</li>
        </ul>
        <h3>Moderate</h3>
        <p>Behaviour that harms other users or the trust the community relies on, for example:</p>
        <ul>
          <li>insults or rude remarks aimed at another person;</li>
          <li>misrepresenting your age or identity;</li>
          <li>attempts to scam or to lure people to other sites;</li>
          <li>using bots, scripts or automation;</li>
          <li>knowingly false reports.</li>
        </ul>
        <h3>Severe</h3>
        <p>Behaviour that puts people at risk or breaks the law, for example:</p>
        <ul>
          <li>explicit or sexual content, including on camera;</li>
          <li>harassment, threats or violent content;</li>
          <li>hate speech targeting people for who they are;</li>
          <li>impersonating another person or our staff;</li>
          <li>being under 18, or any content that sexualises minors;</li>
          <li>evading a ban with another account.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'penalty-tiers',
    title: 'Penalty tiers',
    content: (
      <>
        <StaticTable
          caption={`Penalties for violations counted over ${ESCALATION_WINDOW}`}
          columns={['Violation', 'What happens']}
          rows={TIERS}
        />
        <p>
          Within a tier, the moderator chooses the length that fits the violation: a minor one sits at the lower end, a
          moderate one at the upper end.
        </p>
      </>
    ),
  },
  {
    id: 'severe-violations',
    title: 'Severe violations',
    content: (
      <p>
        A severe violation can skip the tiers: the account can be <strong>suspended immediately</strong>, and banned
        permanently, even if it is the first violation. Content that sexualises minors and credible threats are also
        reported to the competent authorities.
      </p>
    ),
  },
  {
    id: 'when-restricted',
    title: 'When your account is restricted',
    content: (
      <>
        <p>
          While a restriction applies, Serendip shows an <strong>Account Restricted</strong> screen instead of its usual
          pages. It shows the case ID, the reason, who made the decision, the ban date and the expiry, with a countdown,
          or “Permanent”. When the countdown ends, the account works again.
        </p>
        <p>
          Every past restriction and appeal is listed in the Ban History of your Security Center, so you can always see
          what was decided and why.
        </p>
      </>
    ),
  },
  {
    id: 'appeals',
    title: 'Appeals',
    content: (
      <>
        <p>
          If you believe a decision was wrong, select <strong>Appeal Decision</strong> on the restricted screen and
          explain why it should be reconsidered. You can appeal <strong>once per ban</strong>, so include everything
          that matters.
        </p>
        <ul>
          <li>
            Appeals get an <strong>impartial review</strong>: the decision is looked at again on its merits, where
            possible by a moderator who did not make it.
          </li>
          <li>The status of your appeal shows as pending, approved or rejected.</li>
          <li>
            If the appeal is approved, the restriction is lifted and the violation no longer counts towards the next
            tier.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'rehabilitation',
    title: 'Rehabilitation',
    content: (
      <p>
        For violations that are not severe, we would rather help people come back than keep them out. A moderator may
        offer a rehabilitation path, such as reading the Community Guidelines again and confirming that you understand
        them, which can shorten a restriction or turn it into a warning. And once an account goes {ESCALATION_WINDOW}{' '}
        without a new violation, its earlier ones stop counting towards the next tier.
      </p>
    ),
  },
  {
    id: 'questions',
    title: 'Questions',
    content: (
      <p>
        Questions about a decision or about this system? Write to <SupportEmailLink /> and include your case ID if you
        have one.
      </p>
    ),
  },
];

export function PenaltySystemPage() {
  return (
    <StaticPage
      area="Support"
      title="Penalty System"
      description="How Serendip enforces its guidelines: violation levels, penalty tiers from a warning to a permanent ban, immediate suspension for severe cases, appeals and rehabilitation."
      path={STATIC_PAGE_PATHS.penaltySystem}
      intro={
        <p>
          Our penalties are meant to be fair, predictable and proportionate. This page explains what happens when the
          guidelines are broken, how penalties escalate, and how to appeal.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
