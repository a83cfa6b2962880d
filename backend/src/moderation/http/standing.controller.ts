import {
  Body,
  type CanActivate,
  Controller,
  type ExecutionContext,
  ForbiddenException,
  Get,
  HttpCode,
  Injectable,
  NotFoundException,
  Param,
  Put,
  Req,
  UseGuards,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { BanHistoryEntry, BanInfo, WarningEntry } from '@serendip/proto';
import {
  AllowedWhileRestricted,
  AuthGuard,
  type AuthenticatedRequest,
  CommandMeta,
  UserDirectory,
} from '../../identity/public/index.js';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import { AppealBan } from '../commands/appeal-ban/appeal-ban.command.js';
import { BanViews } from '../queries/ban-info/ban-views.js';
import { AppealBanDto } from './moderation.dto.js';
import { ApiAnswers } from '../../platform/api-docs/api-answers.js';

/** The route's :userId is the caller (checked before the body is read, as every guard is). */
@Injectable()
class OwnAccount implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (req.params.userId !== req.auth.userId) throw new ForbiddenException('You can only appeal your own ban');
    return true;
  }
}

/**
 * What the banned screen needs (spec 2 "Banned-account screen", 7): the ban on the account, its one appeal, and the
 * ban history. Reachable while banned; each answers about the caller only (ban info also to staff).
 */
@Controller('user')
@UseGuards(AuthGuard)
@AllowedWhileRestricted()
export class StandingController {
  constructor(
    private readonly commands: CommandBus,
    private readonly bans: BanViews,
    private readonly users: UserDirectory,
  ) {}

  @Get('ban-info/:userId')
  async banInfo(@Param('userId') userId: string, @Req() req: AuthenticatedRequest): Promise<BanInfo> {
    // Another's: staff only, by the dashboard's rule (two-factor on, a session started with the code, not banned).
    if (userId !== req.auth.userId && (await this.users.staffRoleOf(req.auth)) === 'user') {
      throw new ForbiddenException('You can only see your own ban');
    }
    if (!(await this.users.userInfo(userId))) throw new NotFoundException('No such user');
    return this.bans.banInfo(userId, new Date());
  }

  /** spec 7: the id is the user's own _id; one appeal per ban (409 for a second). */
  @ApiAnswers({ 403: 'Not the caller’s own account.', 409: 'This ban was already appealed.' })
  @Put('appeal-ban/:userId')
  @UseGuards(OwnAccount)
  @HttpCode(200)
  async appeal(
    @Param('userId') userId: string,
    @Body() body: AppealBanDto,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<{ message: string }> {
    await this.commands.execute(new AppealBan(userId, body.appealExplanation, meta));
    return { message: 'Appeal submitted successfully.' };
  }

  @Get('ban-history')
  history(@Req() req: AuthenticatedRequest): Promise<BanHistoryEntry[]> {
    return this.bans.history(req.auth.userId, new Date());
  }

  @Get('warnings')
  warnings(@Req() req: AuthenticatedRequest): Promise<WarningEntry[]> {
    return this.bans.warnings(req.auth.userId, new Date());
  }
}
