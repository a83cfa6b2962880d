import type { NotificationKind } from '@serendip/proto';

export interface OutcomeText {
  kind: NotificationKind;
  title: string;
  description: string;
  link?: string;
}

/** Where a banned or formerly banned person reads their case (spec 2 "Security center"). */
const BAN_HISTORY = '/security-center/view-ban-history';

/**
 * What a person is told of moderation outcomes that concern them (spec 4 "Notifications"). The spec gives no texts;
 * these say what happened in plain words. A reporter is never told who was acted on or how: they know whom they
 * reported, and the penalty is that person's business.
 */
export const OUTCOME_TEXTS = {
  reportActioned: {
    kind: 'report-actioned',
    title: 'Your report was acted on',
    description:
      'Thank you for reporting. We reviewed your report and took action under our community guidelines. Reports like yours keep Serendip safe.',
  },
  appealApproved: {
    kind: 'appeal-approved',
    title: 'Your appeal was approved',
    description: 'We reviewed your appeal and lifted the restriction on your account. Welcome back.',
    link: BAN_HISTORY,
  },
  appealRejected: {
    kind: 'appeal-rejected',
    title: 'Your appeal was rejected',
    description:
      'We reviewed your appeal and the restriction on your account stays in place. You can see the details in your Ban History.',
    link: BAN_HISTORY,
  },
  banExpired: {
    kind: 'ban-ended',
    title: 'Your restriction has ended',
    description: 'The restriction on your account has expired. You can use Serendip again.',
    link: BAN_HISTORY,
  },
  banLifted: {
    kind: 'ban-ended',
    title: 'Your restriction has been lifted',
    description: 'An administrator lifted the restriction on your account. You can use Serendip again.',
    link: BAN_HISTORY,
  },
} as const satisfies Record<string, OutcomeText>;
