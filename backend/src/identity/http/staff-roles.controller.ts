import { Body, Controller, HttpCode, NotFoundException, Param, ParseUUIDPipe, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { type Role, roleSchema, type SetRoleRequest } from '@serendip/proto';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import { SetRole } from '../commands/set-role/set-role.command.js';
import { AdminGuard, CommandMeta } from '../public/guards.js';
import { ApiAnswers } from '../../platform/api-docs/api-answers.js';

const accountId = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('No such user') });

export class SetRoleDto implements SetRoleRequest {
  @IsIn(roleSchema.options, { message: `role must be one of ${roleSchema.options.join(', ')}` })
  role!: Role;

  // Recorded with the event: who gets power over people, and why, is for later eyes too.
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: 'reason should not be empty' })
  @IsNotEmpty({ message: 'reason should not be empty' })
  @MaxLength(1000)
  reason!: string;
}

/** spec 6 Admin: granting and taking away staff roles. Admins only; each change is an event with its reason. */
@Controller('dash/users')
@UseGuards(AdminGuard)
export class StaffRolesController {
  constructor(private readonly commands: CommandBus) {}

  @ApiAnswers({ 409: "'Serendip needs at least one admin.' (the last admin's role)." })
  @Post(':userId/role')
  @HttpCode(200)
  setRole(
    @Param('userId', accountId) userId: string,
    @Body() body: SetRoleDto,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<{ message: string }> {
    return this.commands.execute(new SetRole(userId, body.role, body.reason, meta));
  }
}
