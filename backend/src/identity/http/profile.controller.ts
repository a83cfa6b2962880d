import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { UserInfo } from '@serendip/proto';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import { EditProfile } from '../commands/edit-profile/edit-profile.command.js';
import { EditProfileDto } from '../profile/profile.dto.js';
import { AuthGuard, type AuthenticatedRequest, CommandMeta } from '../public/guards.js';

/** The signed-in user's own profile (spec 7: POST /user/edit-profile answers the user; 200 is success). */
@Controller('user')
@UseGuards(AuthGuard)
export class ProfileController {
  constructor(private readonly commands: CommandBus) {}

  @Post('edit-profile')
  @HttpCode(200)
  editProfile(
    @Body() body: EditProfileDto,
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<UserInfo> {
    return this.commands.execute(new EditProfile(req.auth.userId, body, meta));
  }
}
