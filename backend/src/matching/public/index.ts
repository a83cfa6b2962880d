/**
 * Matching's public surface (DESIGN.md "Conventions"): the only matching code other contexts may import. What calls
 * there were and who was in them, a report's evidence (a server-side snapshot, held and let go by a case, shown with
 * the look on record), and keeping a reported pair apart for good.
 */
export { CallRecords, type CallOfUser, type CallParties, RECENT_CALLS_MAX } from './call-records.js';
export { type SnapshotRecord, TakeSnapshot } from '../commands/take-snapshot/take-snapshot.command.js';
export { HoldEvidence, ReleaseEvidence } from '../commands/hold-evidence/hold-evidence.command.js';
export { ViewSnapshot } from '../commands/view-snapshot/view-snapshot.command.js';
export {
  GetSnapshotAudit,
  type SnapshotAudit,
  type SnapshotAuditEntry,
} from '../queries/snapshot/snapshot-audit.query.js';
export { SeparatePair, type Separation } from '../commands/separate-pair/separate-pair.command.js';
export { LiveMatching, type LiveMatchingCounts } from './live-matching.js';
/** The SFU nodes' latest load (GET /api/admin/media reads the same), for the dashboard overview. */
export { SfuLoads } from '../media/sfu-loads.js';
export { MatchingModule } from './matching-module.js';
