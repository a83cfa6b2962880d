import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import type { UserInfo } from '@serendip/proto';
import { ProfileService } from '../profile/profile.service.js';
import { EditProfileDto } from '../profile/profile.dto.js';
import { meta } from './auth.controller.js';
import { AuthGuard, type AuthenticatedRequest } from './auth.guard.js';

/** The signed-in user's own profile (spec 7: POST /user/edit-profile answers the user; 200 is success). */
@Controller('user')
@UseGuards(AuthGuard)
export class ProfileController {
  constructor(private readonly profiles: ProfileService) {}

  @Post('edit-profile')
  @HttpCode(200)
  editProfile(@Body() body: EditProfileDto, @Req() req: AuthenticatedRequest): Promise<UserInfo> {
    return this.profiles.editProfile(req.auth.userId, body, meta(req, req.auth.userId));
  }
}
