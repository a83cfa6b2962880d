import { Inject, Injectable, Logger } from '@nestjs/common';
import { v5 as uuidv5 } from 'uuid';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import type { Position } from '../../platform/event-store/event-store.js';
import { Accounts } from '../accounts/accounts.js';
import { GEO_LOCATOR, type GeoLocator, type Place, UNKNOWN_PLACE } from './geo-ip.js';

/** A sign-in waits at most this long for a place (the first lookup of a process opens the database). */
export const SIGN_IN_LOOKUP_BUDGET_MS = 2000;
// Command ids for UpdateLocation are derived from the request's own, so a retried request records nothing twice.
const LOCATION_COMMAND_NAMESPACE = 'a4f3c1d2-8e6b-4b7a-9c15-2d7e0f9b6a41';

/** Where users are, from the address they connect from (spec 4 "Geolocation"), found on this server only. */
@Injectable()
export class LocationService {
  private readonly logger = new Logger(LocationService.name);

  constructor(
    @Inject(GEO_LOCATOR) private readonly geo: GeoLocator,
    private readonly accounts: Accounts,
  ) {}

  /** Never throws: a failed or slow lookup is logged (without the address: it is personal) and reads as unknown. */
  async placeOf(ip: string | null, budgetMs?: number): Promise<Place> {
    if (!ip) return UNKNOWN_PLACE;
    let timer: NodeJS.Timeout | undefined;
    const lookup = this.geo.locate(ip).catch((error: unknown) => {
      this.logger.warn(`geo-IP lookup failed: ${error instanceof Error ? error.message : String(error)}`);
      return UNKNOWN_PLACE;
    });
    if (budgetMs === undefined) return lookup;
    const late = new Promise<Place>((resolve) => {
      timer = setTimeout(() => {
        this.logger.warn(`geo-IP lookup took over ${budgetMs} ms; the place stays unknown this time`);
        resolve(UNKNOWN_PLACE);
      }, budgetMs);
    });
    try {
      return await Promise.race([lookup, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * UpdateLocation: the decider records LocationUpdated only when the place differs (spec 5). An unknown place
   * (a private address, a missing entry) says nothing about where the user is, so it never erases a known one.
   */
  async recordForUser(userId: string, place: Place, meta: CommandMetadata): Promise<Position | undefined> {
    if (place.country === null) return undefined;
    return this.accounts.run(
      userId,
      { type: 'UpdateLocation', country: place.country, city: place.city },
      { ...meta, commandId: uuidv5(`${meta.commandId}:update-location`, LOCATION_COMMAND_NAMESPACE) },
    );
  }

  /** After a sign-in: best effort, a failure is logged and the sign-in goes on. */
  async recordAfterSignIn(userId: string, place: Place, meta: CommandMetadata): Promise<Position | undefined> {
    try {
      return await this.recordForUser(userId, place, meta);
    } catch (error) {
      this.logger.warn(`recording the location failed: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }
}
