import { type DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import type { Config } from './config/config.js';
import { CONFIG } from './config/config.token.js';
import { HealthController } from './ops/health/health.controller.js';
import { ServerLogService } from './ops/server-log/server-log.service.js';
import { SystemGateway } from './ops/system-socket/system.gateway.js';
import { DATABASE, type Db } from './platform/database/database.js';

@Module({})
export class AppModule {
  /** The process's resources are made before Nest (the database may need starting) and handed in here. */
  static register(deps: { config: Config; db: Db }): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [CqrsModule.forRoot()],
      controllers: [HealthController],
      providers: [
        { provide: CONFIG, useValue: deps.config },
        { provide: DATABASE, useValue: deps.db },
        ServerLogService,
        SystemGateway,
      ],
      exports: [CONFIG, DATABASE],
    };
  }
}
