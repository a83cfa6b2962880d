import { Body, Controller, HttpCode, Inject, Post, Req, UseGuards } from '@nestjs/common';
import type { GeolocationAnswer } from '@serendip/proto';
import type { Limit, RateLimits } from '../../platform/http/rate-limits.js';
import { RATE_LIMITS } from '../accounts/identity.service.js';
import { meta } from '../http/auth.controller.js';
import { AuthGuard, type AuthenticatedRequest } from '../http/auth.guard.js';
import { LocationService } from './location.service.js';

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
    private readonly location: LocationService,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
  ) {}

  @Post('auth/geolocation')
  @HttpCode(200)
  async update(@Body() _body: GeolocationDto, @Req() req: AuthenticatedRequest): Promise<GeolocationAnswer> {
    await this.limits.take(GEOLOCATION_LIMIT, req.auth.userId);
    // req.ip honours TRUST_PROXY: X-Forwarded-For counts only when it comes from a trusted proxy.
    return this.location.updateFromRequest(req.auth.userId, req.ip ?? null, meta(req, req.auth.userId));
  }
}
