import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import type { DashboardOverview } from '@serendip/proto';
import { StaffGuard } from '../../identity/public/index.js';
import { Overview } from '../queries/overview/overview.js';

/** The dashboard's overview (spec 2 "Admin dashboard"): counters, charts and SFU load, for admins and moderators. */
@Controller('dash/overview')
@UseGuards(StaffGuard)
export class OverviewController {
  constructor(private readonly overview: Overview) {}

  @Get()
  @Header('Cache-Control', 'private, no-store')
  get(): Promise<DashboardOverview> {
    return this.overview.overview();
  }
}
