import { ADMIN_AUDIT_MAX_LIMIT } from '@serendip/proto';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

/** Stream names are a context's word and ids, joined by dashes (`identity-user-<id>`, `feed-like-<post>-<user>`). */
const STREAM_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$/;

class AuditPageQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be at least 1' })
  @Max(ADMIN_AUDIT_MAX_LIMIT, { message: `limit must be at most ${ADMIN_AUDIT_MAX_LIMIT}` })
  limit?: number;
}

/** GET /api/admin/audit/users/:userId: the page size, and where the last page ended (its `nextCursor`). */
export class AuditUserQueryDto extends AuditPageQueryDto {
  // Positions are Postgres bigints: 18 digits always fit, so no cursor can make the query fail.
  @IsOptional()
  @IsString({ message: 'cursor must be text' })
  @Matches(/^\d{1,18}:\d{1,18}$/, { message: 'cursor must be the nextCursor of an earlier answer' })
  cursor?: string;
}

/** GET /api/admin/audit/streams/:stream: the page size, and where the last page ended (its `nextCursor`). */
export class AuditStreamQueryDto extends AuditPageQueryDto {
  @IsOptional()
  @IsString({ message: 'cursor must be text' })
  @Matches(/^\d{1,18}$/, { message: 'cursor must be the nextCursor of an earlier answer' })
  cursor?: string;
}

export class AuditStreamParamsDto {
  @IsString({ message: 'stream must be text' })
  @MaxLength(200, { message: 'stream must be at most 200 characters' })
  @Matches(STREAM_NAME, { message: 'stream must be a stream name, such as identity-user-<id>' })
  stream!: string;
}
