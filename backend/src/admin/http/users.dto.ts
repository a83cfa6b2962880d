import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

/** GET /api/dash/users: the header's search and the page. */
export class DashUsersQueryDto {
  @IsOptional()
  @IsString({ message: 'search must be text' })
  @MaxLength(100, { message: 'search must be at most 100 characters' })
  search?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be a whole number' })
  @Min(1, { message: 'page must be at least 1' })
  @Max(100_000, { message: 'page is too large' })
  page?: number;
}

/** GET /api/dash/users/:userId/audit-trail: the page, and the trail as of the first read (its answer's `asOf`). */
export class AuditTrailQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be a whole number' })
  @Min(1, { message: 'page must be at least 1' })
  @Max(100_000, { message: 'page is too large' })
  page?: number;

  // Positions are Postgres bigints: 18 digits always fit, so no asOf can make the query fail.
  @IsOptional()
  @IsString({ message: 'asOf must be text' })
  @Matches(/^\d{1,18}:\d{1,18}$/, { message: 'asOf must be the asOf of an earlier answer' })
  asOf?: string;
}
