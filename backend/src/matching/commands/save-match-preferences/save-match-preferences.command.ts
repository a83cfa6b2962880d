import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { MatchFilters } from '@serendip/proto';
import { type CommandMetadata, executeDecider } from '../../../platform/cqrs/execute-decider.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { matchPreferences, matchPreferencesStream } from '../../domain/match-preferences.js';

/** Answers whether a change was recorded (an unchanged set records nothing). */
export class SaveMatchPreferences extends Command<{ recorded: boolean }> {
  constructor(
    readonly userId: string,
    readonly filters: MatchFilters,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/** The wizard's choices, kept for the account's next visit (an unchanged set records nothing). */
@CommandHandler(SaveMatchPreferences)
export class SaveMatchPreferencesHandler implements ICommandHandler<SaveMatchPreferences> {
  constructor(@Inject(EVENT_CORE) private readonly core: EventCore) {}

  async execute({ userId, filters, meta }: SaveMatchPreferences): Promise<{ recorded: boolean }> {
    const { events, alreadyHandled } = await executeDecider(
      this.core,
      matchPreferencesStream(userId),
      matchPreferences,
      { type: 'SaveMatchPreferences', userId, filters },
      meta,
    );
    return { recorded: events.length > 0 && !alreadyHandled };
  }
}
