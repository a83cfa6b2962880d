/**
 * Admin's public surface (DESIGN.md "Conventions"): recording what staff looked at. Only the port: the dashboard's
 * module and its queries stay inside (admin reads moderation's public records, so exporting them would make a cycle).
 */
export { RecordStaffAccess } from '../commands/record-access/record-access.js';
export { StaffAccessModule } from './staff-access.module.js';
