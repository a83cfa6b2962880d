import type { AppealStatusValue } from '@serendip/proto';
import { CircleCheck, CircleDashed, CircleX, Clock } from 'lucide-react';
import { Badge } from '../../ui/Badge';
import { APPEAL_STATUS_LOOK } from './ban-display';

const ICONS = { approved: CircleCheck, pending: Clock, rejected: CircleX, none: CircleDashed } as const;

/** spec 2 Appeal Status: the word, its colour and an icon (the colour only repeats what the word says). */
export function AppealStatusBadge({ status }: { status: AppealStatusValue }) {
  const { label, tone } = APPEAL_STATUS_LOOK[status];
  const Icon = ICONS[status];
  return (
    <Badge tone={tone} data-appeal-status={status}>
      <Icon aria-hidden="true" />
      {label}
    </Badge>
  );
}
