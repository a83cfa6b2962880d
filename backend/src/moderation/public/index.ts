/**
 * Moderation's public surface (DESIGN.md "Conventions"). Other contexts learn of bans and reports from its integration
 * events (proto/src/events/moderation.ts) and identity asks it through its own AccountStanding port: nothing here yet
 * but the module, which the app composes.
 */
export { ModerationFigures, type ModerationFiguresNow } from './moderation-figures.js';
export { ModerationModule } from '../moderation.module.js';
export { type BanRecord, ModerationRecords } from './moderation-records.js';
/** The sweep that ends bans past their expiry (it runs on its own): tests elsewhere run it on demand. */
export { ExpireBans } from '../commands/expire-bans/expire-bans.js';
