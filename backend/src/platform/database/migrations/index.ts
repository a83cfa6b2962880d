import type { Migration } from 'kysely';
import * as serverLog from './0001-server-log.js';
import * as eventStore from './0002-event-store.js';
import * as identityUsers from './0003-identity-users.js';
import * as identitySecurity from './0004-identity-security.js';
import * as rateLimits from './0005-rate-limits.js';
import * as identityProfile from './0006-identity-profile.js';
import * as emailChange from './0008-email-change.js';
import * as sessionLocation from './0009-session-location.js';
import * as matching from './0010-matching.js';
import * as mediaRelay from './0011-media-relay.js';
import * as identityHardening from './0013-identity-hardening.js';
import * as matchingEvidence from './0014-matching-evidence.js';
import * as moderation from './0015-moderation.js';
import * as matchingSeparations from './0016-matching-separations.js';
import * as appLog from './0018-app-log.js';
import * as auditTrail from './0020-audit-trail.js';
import * as overviewStats from './0019-overview-stats.js';
import * as reportReview from './0021-report-review.js';
import * as codeSessions from './0022-code-sessions.js';
import * as notifications from './0023-notifications.js';
import * as presenceStatus from './0024-presence-status.js';
import * as feed from './0025-feed.js';
import * as contentReports from './0026-content-reports.js';
import * as feedImages from './0027-feed-images.js';
import * as auditTrailStreams from './0028-audit-trail-streams.js';
import * as identityRoles from './0017-identity-roles.js';

/** Every migration, in order. Listed by hand so the build and the tests run the same set. */
export const migrations: Record<string, Migration> = {
  '0001-server-log': serverLog,
  '0002-event-store': eventStore,
  '0003-identity-users': identityUsers,
  '0004-identity-security': identitySecurity,
  '0005-rate-limits': rateLimits,
  '0006-identity-profile': identityProfile,
  '0008-email-change': emailChange,
  '0009-session-location': sessionLocation,
  '0010-matching': matching,
  '0011-media-relay': mediaRelay,
  '0013-identity-hardening': identityHardening,
  '0014-matching-evidence': matchingEvidence,
  '0015-moderation': moderation,
  '0016-matching-separations': matchingSeparations,
  '0018-app-log': appLog,
  '0020-audit-trail': auditTrail,
  '0017-identity-roles': identityRoles,
  '0019-overview-stats': overviewStats,
  '0021-report-review': reportReview,
  '0022-code-sessions': codeSessions,
  '0023-notifications': notifications,
  '0024-presence-status': presenceStatus,
  '0025-feed': feed,
  '0026-content-reports': contentReports,
  '0027-feed-images': feedImages,
  '0028-audit-trail-streams': auditTrailStreams,
};
