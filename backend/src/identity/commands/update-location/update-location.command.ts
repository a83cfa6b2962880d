import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { GeolocationAnswer } from '@serendip/proto';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { Accounts } from '../../accounts/accounts.js';
import { LocationService } from '../../location/location.service.js';

export class UpdateLocation extends Command<GeolocationAnswer> {
  constructor(
    readonly userId: string,
    /** The request's own address (TRUST_PROXY decides whether a forwarded one counts): never a place from the client. */
    readonly ip: string | null,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/** POST /auth/geolocation (spec 4 "Geolocation"): the caller's place; user-info shows it once this answers. */
@CommandHandler(UpdateLocation)
export class UpdateLocationHandler implements ICommandHandler<UpdateLocation> {
  constructor(
    private readonly location: LocationService,
    private readonly accounts: Accounts,
  ) {}

  async execute({ userId, ip, meta }: UpdateLocation): Promise<GeolocationAnswer> {
    const place = await this.location.placeOf(ip);
    if (place.country === null) return { message: 'Location unknown for this address', ...place };
    const position = await this.location.recordForUser(userId, place, meta);
    if (!position) return { message: 'Location unchanged', ...place };
    await this.accounts.caughtUpTo(position);
    return { message: 'Location updated', ...place };
  }
}
