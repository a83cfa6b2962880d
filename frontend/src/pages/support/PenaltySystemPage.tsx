import { APPEAL_EXPLANATION_MAX_LENGTH, PENALTY_ESCALATION_WINDOW_DAYS } from '@serendip/proto';
import { Link } from 'react-router';
import { SupportEmailLink } from '../legal/config-text';
import { StaticPage, type StaticSection } from '../legal/StaticPage';
import { StaticTable } from '../legal/StaticTable';
import { STATIC_PAGE_PATHS } from '../legal/static-pages';

/** spec 9 (policy text): how long a violation counts towards the next tier (proto: 182 days). */
const ESCALATION_WINDOW = '6 months';

// spec 9, as the moderators' tool suggests it (backend moderation/domain/penalty-policy.ts): first a warning (minor) or
// 24 hours (moderate), second 3 or 7 days, third 30 days, then a permanent ban.
const TIERS = [
  ['First violation', 'A warning (minor), or a restriction of 24 hours (moderate).'],
  ['Second violation', 'A restriction of 3 days (minor) or 7 days (moderate).'],
  ['Third violation', 'A restriction of 30 days.'],
  ['Fourth and later violations', 'A permanent ban.'],
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
          Penalties grow step by step. The violations that count are the warnings, restrictions and bans on the
          account’s record from the last <strong>{ESCALATION_WINDOW}</strong> ({PENALTY_ESCALATION_WINDOW_DAYS} days):
          an older one, or one whose appeal was approved, no longer moves an account to a higher tier. A warning
          restricts nothing; it is listed with the account’s bans in Security Center &gt; Ban History.
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
          The moderator sees the penalty this table calls for. A different one, lighter or heavier, is possible only
          with a recorded reason.
        </p>
      </>
    ),
  },
  {
    id: 'severe-violations',
    title: 'Severe violations',
    content: (
      <p>
        A severe violation skips the tiers: the account is <strong>suspended immediately</strong> for 30 days, or banned
        permanently if it already has a violation on its record from the last {ESCALATION_WINDOW}. In the gravest cases
        a moderator can ban permanently at once, even for a first violation. Content that sexualises minors and credible
        threats are also reported to the competent authorities.
      </p>
    ),
  },
  {
    id: 'when-restricted',
    title: 'When your account is restricted',
    content: (
      <>
        <p>
          A restriction starts at once: a call in progress ends, and matching stays closed until it is over. In place of
          its usual pages Serendip shows an <strong>Account Restricted</strong> screen with the case ID, the reason, who
          made the decision, the status of your appeal, the date of the restriction and its expiry, with a countdown
          that runs by the second, or “Permanent”.
        </p>
        <p>
          When the countdown ends, the restriction is lifted within seconds and the account works again, without signing
          in anew. You can sign out from the screen at any time.
        </p>
        <p>
          Every restriction and appeal, past and present, is listed in the <strong>Ban History</strong> of your Security
          Center, which stays open to you while you are restricted: what was decided, how it ended and what the
          moderator said about your appeal.
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
          If you believe a decision was wrong, select <strong>Appeal Decision</strong> on the Account Restricted screen
          and explain, in up to {APPEAL_EXPLANATION_MAX_LENGTH.toLocaleString('en-US')} characters, why it should be
          reconsidered. You can appeal <strong>once per ban</strong>, so include everything that matters.
        </p>
        <ul>
          <li>
            Appeals get an <strong>impartial review</strong>: a moderator looks at the decision again on its merits,
            with your explanation and the evidence.
          </li>
          <li>
            Until the review your appeal shows as pending; after it, as approved or rejected, on the Account Restricted
            screen, and in your Ban History with the moderator’s note.
          </li>
          <li>
            If the appeal is approved, the restriction is lifted at once and the violation is removed from your record:
            it no longer counts towards the next tier. If it is rejected, the restriction runs its course.
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
        For violations that are not severe, we would rather help people come back than keep them out: a moderator can
        choose a lighter penalty than the table’s, stating why, or lift a restriction early. And once an account goes{' '}
        {ESCALATION_WINDOW} without a new violation, its earlier ones stop counting towards the next tier.
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
      description="How Serendip enforces its guidelines: violation levels, penalty tiers from a warning to a permanent ban, immediate suspension for severe cases, the Account Restricted screen, appeals and rehabilitation."
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
