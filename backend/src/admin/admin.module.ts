import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/public/index.js';

/** The admin dashboard's context (spec 2 "Admin dashboard", spec 6 Admin): read models and routes under /api/dash. */
@Module({
  imports: [IdentityModule],
  controllers: [],
  providers: [],
})
export class AdminModule {}
