import { Body, Controller, HttpCode, Inject, NotFoundException, Post, Req, UseGuards } from '@nestjs/common';
import { AuthGuard, type AuthenticatedRequest, commandMetaOf } from '../../identity/public/index.js';
import { DomainError } from '../../platform/cqrs/decider.js';
import { executeDecider } from '../../platform/cqrs/execute-decider.js';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import { match } from '../domain/match.decider.js';
import { matchStream } from '../domain/match.events.js';
import { SubmitFeedbackDto } from './feedback.dto.js';

/** Feedback after a call (spec 2 "Post-call feedback card", 7): one per user per call, from its two users only. */
@Controller('user')
@UseGuards(AuthGuard)
export class FeedbackController {
  constructor(@Inject(EVENT_CORE) private readonly core: EventCore) {}

  @Post('submit-feedback')
  @HttpCode(201)
  async submitFeedback(@Body() body: SubmitFeedbackDto, @Req() req: AuthenticatedRequest) {
    const userId = req.auth.userId;
    try {
      await executeDecider(
        { store: this.core.store, schemas: this.core.schemas },
        matchStream(body.matchId),
        match,
        {
          type: 'GiveFeedback',
          matchId: body.matchId,
          userId,
          rating: body.rating,
          additionalInformation: body.additionalInformation?.trim() ?? '',
        },
        commandMetaOf(req),
      );
    } catch (error) {
      if (error instanceof DomainError && error.code === 'match-not-found') throw new NotFoundException(error.message);
      throw error;
    }
    return { message: 'Thank you for your feedback' };
  }
}
