import { Body, Controller, Get, Header, HttpCode, Inject, Put, Req, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { type MatchFilters, matchFiltersSchema, type MatchPreferencesAnswer } from '@serendip/proto';
import { AuthGuard, type AuthenticatedRequest, CommandMeta } from '../../identity/public/index.js';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import { type Limit, RATE_LIMITS, type RateLimits } from '../../platform/http/rate-limits.js';
import { zodBody } from '../../platform/http/zod-body.js';
import { SaveMatchPreferences } from '../commands/save-match-preferences/save-match-preferences.command.js';
import { sameFilters } from '../domain/match-preferences.js';
import { GetMatchPreferences } from '../queries/match-preferences/match-preferences.query.js';

/**
 * Changes to one account's set: each is an event, sealed, that every later save reads and opens again, so a script
 * flipping it must not grow the stream without bound. Far above a person's Starts; an unchanged save is not counted.
 */
export const MATCH_PREFERENCES_LIMIT = {
  name: 'match-preferences-user',
  points: 30,
  durationSeconds: 60 * 60,
} satisfies Limit;

/**
 * The signed-in account's own match preferences (spec 3 "Match filters"): the wizard runs once, later visits start
 * at the ready screen. Always the caller's own: no user id in the path or body.
 */
@Controller('user/match-preferences')
@UseGuards(AuthGuard)
export class MatchPreferencesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
  ) {}

  @Get()
  @Header('Cache-Control', 'private, no-store')
  async get(@Req() req: AuthenticatedRequest): Promise<MatchPreferencesAnswer> {
    return { filters: await this.queries.execute(new GetMatchPreferences(req.auth.userId)) };
  }

  @Put()
  @HttpCode(200)
  async save(
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
    @Body(zodBody(matchFiltersSchema)) filters: MatchFilters,
  ): Promise<MatchPreferencesAnswer> {
    const { userId } = req.auth;
    // The same set again (a Start with nothing changed) records nothing, and is never refused.
    const saved = await this.queries.execute(new GetMatchPreferences(userId));
    if (saved && sameFilters(saved, filters)) return { filters };
    await this.limits.check(MATCH_PREFERENCES_LIMIT, userId);
    const { recorded } = await this.commands.execute(new SaveMatchPreferences(userId, filters, meta));
    if (recorded) await this.limits.consume(MATCH_PREFERENCES_LIMIT, userId);
    return { filters };
  }
}
