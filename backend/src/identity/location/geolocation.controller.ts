import { Body, Controller, HttpCode, Inject, Post, Req, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { GeolocationAnswer } from '@serendip/proto';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import { type Limit, RATE_LIMITS, type RateLimits } from '../../platform/http/rate-limits.js';
import { UpdateLocation } from '../commands/update-location/update-location.command.js';
import { AuthGuard, type AuthenticatedRequest, CommandMeta } from '../public/guards.js';
import { ApiAnswers } from '../../platform/api-docs/api-answers.js';

/**
 * No fields: the spec's client sent userId, city, country_name, ip and more (spec 7), but a place or a user id
 * from the client would let anyone put anyone anywhere. Unknown fields are refused like on every route.
 */
export class GeolocationDto {}

/** A manual "update my location" is a lookup and maybe an event; a few an hour are plenty. */
export const GEOLOCATION_LIMIT = { name: 'geolocation-user', points: 10, durationSeconds: 60 * 60 } satisfies Limit;

/** POST /auth/geolocation (spec 4 "Geolocation", spec 7): the caller's place from the request's own address. */
@Controller()
@UseGuards(AuthGuard)
export class GeolocationController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
  ) {}

  @ApiAnswers({ 429: 'Asked too often; Retry-After says when.' })
  @Post('auth/geolocation')
  @HttpCode(200)
  async update(
    @Body() _body: GeolocationDto,
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<GeolocationAnswer> {
    await this.limits.take(GEOLOCATION_LIMIT, req.auth.userId);
    // req.ip honours TRUST_PROXY: X-Forwarded-For counts only when it comes from a trusted proxy.
    return this.commands.execute(new UpdateLocation(req.auth.userId, req.ip ?? null, meta));
  }
}
