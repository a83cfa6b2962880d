import {
  APPEAL_EXPLANATION_MAX_LENGTH,
  MODERATION_NOTE_MAX_LENGTH,
  REPORT_DETAILS_MAX_LENGTH,
  REPORT_OUTCOMES,
  REPORT_REASONS,
  REPORT_SEVERITIES,
  REPORT_STATUSES,
  type ReportReason,
  type ReportSeverity,
  type ReportStatus,
  VIOLATION_LEVELS,
  type ViolationLevel,
} from '@serendip/proto';
import { Type } from 'class-transformer';
import {
  Equals,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

const REASON_KEYS = Object.keys(REPORT_REASONS);

/** spec 7 POST /report/submit-report: who reports is the signed-in user, never a field; whom, the call says. */
export class SubmitReportDto {
  @IsUUID('all', { message: 'matchId must be the id of one of your calls' })
  matchId!: string;

  /** The partner's id in that call (matchFound.partnerId); the call, not this, says who is reported. */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  reportedUser?: string;

  @IsIn(REASON_KEYS, { message: 'Please provide a reason for the report.' })
  reason!: ReportReason;

  @IsIn(REPORT_SEVERITIES, { message: `severity must be one of ${REPORT_SEVERITIES.join(', ')}` })
  severity!: ReportSeverity;

  @IsOptional()
  @IsUUID('all', { message: 'screenshot must be the id of an uploaded screenshot' })
  screenshot?: string;

  @IsOptional()
  @IsString()
  @MaxLength(REPORT_DETAILS_MAX_LENGTH)
  details?: string;

  @IsOptional()
  @Equals('videosession', { message: 'type must be videosession' })
  type?: 'videosession';
}

/** spec 7 PUT /user/appeal-ban/{id}; spec 5: non-blank after trimming (the decider says so too). */
export class AppealBanDto {
  @IsString({ message: 'Please provide a reason for your appeal.' })
  @MaxLength(APPEAL_EXPLANATION_MAX_LENGTH)
  appealExplanation!: string;
}

class PenaltyDto {
  @IsIn(['warning', 'restriction', 'permanent'], { message: 'penalty.kind must be warning, restriction or permanent' })
  kind!: 'warning' | 'restriction' | 'permanent';

  @ValidateIf((p: PenaltyDto) => p.kind === 'restriction')
  @IsInt({ message: 'penalty.days must be a whole number of days' })
  @Min(1, { message: 'penalty.days must be at least 1' })
  @Max(3650, { message: 'penalty.days must be at most 3650' })
  days?: number;
}

export class BanUserDto {
  @IsString()
  @MaxLength(MODERATION_NOTE_MAX_LENGTH)
  reason!: string;

  @IsIn(VIOLATION_LEVELS, { message: `level must be one of ${VIOLATION_LEVELS.join(', ')}` })
  level!: ViolationLevel;

  @ValidateNested()
  @Type(() => PenaltyDto)
  penalty!: PenaltyDto;

  @IsOptional()
  @IsString()
  @MaxLength(MODERATION_NOTE_MAX_LENGTH)
  overrideReason?: string;

  @IsOptional()
  @IsUUID('all', { message: 'reportId must be a report id' })
  reportId?: string;
}

export class LiftBanDto {
  @IsString()
  @MaxLength(MODERATION_NOTE_MAX_LENGTH)
  reason!: string;
}

export class ResolveAppealDto {
  @IsIn(['approved', 'rejected'], { message: 'outcome must be approved or rejected' })
  outcome!: 'approved' | 'rejected';

  @IsString()
  @MaxLength(MODERATION_NOTE_MAX_LENGTH)
  note!: string;
}

/** An actioned report is one a ban acted on: that is done by banning with its reportId, not here. */
export class ResolveReportDto {
  @IsIn(REPORT_OUTCOMES.filter((o) => o !== 'actioned'), {
    message: 'outcome must be dismissed or false (ban the user with the reportId to action it)',
  })
  outcome!: 'dismissed' | 'false';

  @IsOptional()
  @IsString()
  @MaxLength(MODERATION_NOTE_MAX_LENGTH)
  note?: string;
}

export class PenaltySuggestionQuery {
  @IsIn(VIOLATION_LEVELS, { message: `level must be one of ${VIOLATION_LEVELS.join(', ')}` })
  level!: ViolationLevel;
}

/** GET /api/dash/report/get-all: which page, and the table's filters. */
export class DashReportQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be a whole number' })
  @Min(1, { message: 'page must be at least 1' })
  @Max(100_000, { message: 'page is too large' })
  page?: number;

  @IsOptional()
  @IsIn([...REPORT_STATUSES, 'all'], { message: `status must be one of ${[...REPORT_STATUSES, 'all'].join(', ')}` })
  status?: ReportStatus | 'all';

  @IsOptional()
  @IsIn(REPORT_SEVERITIES, { message: `severity must be one of ${REPORT_SEVERITIES.join(', ')}` })
  severity?: ReportSeverity;

  @IsOptional()
  @IsIn(REASON_KEYS, { message: `reason must be one of ${REASON_KEYS.join(', ')}` })
  reason?: ReportReason;
}

/** GET /api/dash/appeals: which page. */
export class DashPageQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be a whole number' })
  @Min(1, { message: 'page must be at least 1' })
  @Max(100_000, { message: 'page is too large' })
  page?: number;
}
