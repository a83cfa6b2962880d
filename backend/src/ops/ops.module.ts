import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/public/identity-module.js';
import { RecordServiceStartHandler } from './commands/record-service-start/record-service-start.command.js';
import { RecordServiceStopHandler } from './commands/record-service-stop/record-service-stop.command.js';
import { LogRetention } from './commands/purge-old-log-lines/log-retention.js';
import { PurgeOldLogLinesHandler } from './commands/purge-old-log-lines/purge-old-log-lines.command.js';
import { HealthController } from './health/health.controller.js';
import { SystemLogController } from './http/system-log.controller.js';
import { SystemLog } from './queries/system-log/system-log.js';
import { ServiceLifecycle } from './service-lifecycle.js';
import { SystemGateway } from './system-socket/system.gateway.js';
import { OnlinePusher } from './presence/online-pusher.js';

/**
 * Operations (DESIGN.md "Conventions"): health, this process's start and stop, the system socket, and the admin
 * System Log (the app's own log lines, kept LOG_RETENTION_DAYS).
 */
@Module({
  imports: [IdentityModule],
  controllers: [HealthController, SystemLogController],
  providers: [
    RecordServiceStartHandler,
    RecordServiceStopHandler,
    ServiceLifecycle,
    SystemGateway,
    OnlinePusher,
    SystemLog,
    PurgeOldLogLinesHandler,
    LogRetention,
  ],
})
export class OpsModule {}
