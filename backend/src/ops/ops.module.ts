import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/public/identity-module.js';
import { RecordServiceStartHandler } from './commands/record-service-start/record-service-start.command.js';
import { RecordServiceStopHandler } from './commands/record-service-stop/record-service-stop.command.js';
import { HealthController } from './health/health.controller.js';
import { ServiceLifecycle } from './service-lifecycle.js';
import { SystemGateway } from './system-socket/system.gateway.js';

/** Operations (DESIGN.md "Conventions"): health, this process's start and stop, the system socket. */
@Module({
  imports: [IdentityModule],
  controllers: [HealthController],
  providers: [RecordServiceStartHandler, RecordServiceStopHandler, ServiceLifecycle, SystemGateway],
})
export class OpsModule {}
