import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AuthGuard, type AuthenticatedRequest, CommandMeta } from '../../identity/public/index.js';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import { GiveFeedback } from '../commands/give-feedback/give-feedback.command.js';
import { SubmitFeedbackDto } from './feedback.dto.js';

/** Feedback after a call (spec 2 "Post-call feedback card", 7): one per user per call, from its two users only. */
@Controller('user')
@UseGuards(AuthGuard)
export class FeedbackController {
  constructor(private readonly commands: CommandBus) {}

  @Post('submit-feedback')
  @HttpCode(201)
  async submitFeedback(
    @Body() body: SubmitFeedbackDto,
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<{ message: string }> {
    const text = body.additionalInformation?.trim() ?? '';
    await this.commands.execute(new GiveFeedback(body.matchId, req.auth.userId, body.rating, text, meta));
    return { message: 'Thank you for your feedback' };
  }
}
