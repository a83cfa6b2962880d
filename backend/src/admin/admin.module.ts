import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/public/index.js';
import { MatchingModule } from '../matching/public/index.js';
import { OverviewController } from './http/overview.controller.js';
import { DashboardCountersPusher } from './live/counters-pusher.js';
import { Overview } from './queries/overview/overview.js';
import { DashUsersController } from './http/users.controller.js';
import { AuditController } from './http/audit.controller.js';
import { AuditHistory } from './queries/audit-history/audit-history.js';
import { AuditTrail } from './queries/audit-trail/audit-trail.js';
import { UserDetails } from './queries/user-details/user-details.js';
import { UserList } from './queries/user-list/user-list.js';
import { StaffAccessModule } from './public/staff-access.module.js';

/**
 * The admin dashboard's context (spec 2 "Admin dashboard", spec 6 Admin): read models and routes under /api/dash, and
 * the admins' audit API under /api/admin/audit.
 */
@Module({
  imports: [IdentityModule, MatchingModule, StaffAccessModule],
  controllers: [OverviewController, DashUsersController, AuditController],
  providers: [Overview, DashboardCountersPusher, UserList, UserDetails, AuditTrail, AuditHistory],
})
export class AdminModule {}
