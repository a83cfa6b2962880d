import { FEEDBACK_TEXT_MAX_LENGTH } from '@serendip/proto';
import { Equals, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';

/** POST /user/submit-feedback (spec 7): the submitter is the signed-in user, never a field of the body. */
export class SubmitFeedbackDto {
  @IsUUID(undefined, { message: 'matchId must be the id of one of your calls' })
  matchId: string;

  // spec 5: 1 Poor, 2 Fair, 3 Good, 4 Very Good, 5 Excellent.
  @IsInt({ message: 'rating must be a whole number from 1 to 5' })
  @Min(1, { message: 'rating must be a whole number from 1 to 5' })
  @Max(5, { message: 'rating must be a whole number from 1 to 5' })
  rating: number;

  @IsOptional()
  @IsString()
  @MaxLength(FEEDBACK_TEXT_MAX_LENGTH)
  additionalInformation?: string;

  @IsOptional()
  @Equals('videomatch', { message: 'type must be videomatch' })
  type?: 'videomatch';
}
