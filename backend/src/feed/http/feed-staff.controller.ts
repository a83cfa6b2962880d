import { Body, Controller, Get, Header, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  type DashRemovalAppeal,
  type DecideRemovalAppealRequest,
  decideRemovalAppealRequestSchema,
  type RemoveContentRequest,
  removeContentRequestSchema,
} from '@serendip/proto';
import { type AuthenticatedRequest, CommandMeta, StaffGuard, UserDirectory } from '../../identity/public/index.js';
import type { StaffRole } from '../domain/contribution.decider.js';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import { zodBody } from '../../platform/http/zod-body.js';
import { ChangeContribution } from '../commands/change-contribution/change-contribution.command.js';
import { RemovalAppeals } from '../queries/removal-appeals/removal-appeals.js';
import { ApiAnswers } from '../../platform/api-docs/api-answers.js';

/**
 * Staff (admins and moderators, StaffGuard before any body is read): take a comment or reply down, and decide the
 * appeals of removals, listed beside ban appeals on the dashboard.
 */
@Controller('dash/feed')
@UseGuards(StaffGuard)
export class FeedStaffController {
  constructor(
    private readonly commands: CommandBus,
    private readonly appeals: RemovalAppeals,
    private readonly users: UserDirectory,
  ) {}

  /** The guard let only staff through: an admin, or else a moderator. */
  private async roleOf(req: AuthenticatedRequest): Promise<StaffRole> {
    return (await this.users.staffRoleOf(req.auth)) === 'admin' ? 'admin' : 'moderator';
  }

  @Post('removals/:id')
  @HttpCode(204)
  async remove(
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
    @Param('id') id: string,
    @Body(zodBody(removeContentRequestSchema)) body: RemoveContentRequest,
  ) {
    await this.commands.execute(
      new ChangeContribution(
        id,
        undefined,
        { type: 'Remove', by: req.auth.userId, role: await this.roleOf(req), reason: body.reason },
        meta,
      ),
    );
  }

  @Get('removal-appeals')
  @Header('Cache-Control', 'private, no-store')
  async pending(): Promise<DashRemovalAppeal[]> {
    return this.appeals.pending();
  }

  @ApiAnswers({ 409: 'The appeal was already decided.' })
  @Post('removal-appeals/:id')
  @HttpCode(204)
  async decide(
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
    @Param('id') id: string,
    @Body(zodBody(decideRemovalAppealRequestSchema)) body: DecideRemovalAppealRequest,
  ) {
    await this.commands.execute(
      new ChangeContribution(
        id,
        undefined,
        {
          type: 'DecideRemovalAppeal',
          by: req.auth.userId,
          role: await this.roleOf(req),
          outcome: body.outcome,
          ...(body.note ? { note: body.note } : {}),
        },
        meta,
      ),
    );
  }
}
