import { Module } from '@nestjs/common';
import { RecordStaffAccess } from '../commands/record-access/record-access.js';

/**
 * The access record (StaffViewedUser) as a port other contexts may use: moderation records a look at a person's
 * moderation trail with it, as the dashboard does for its details and audit trail (spec 6 Admin).
 */
@Module({ providers: [RecordStaffAccess], exports: [RecordStaffAccess] })
export class StaffAccessModule {}
