/**
 * Moderation's public surface (DESIGN.md "Conventions"). Other contexts learn of bans and reports from its integration
 * events (proto/src/events/moderation.ts) and identity asks it through its own AccountStanding port: nothing here yet
 * but the module, which the app composes.
 */
export { ModerationModule } from '../moderation.module.js';
