import type { DashboardOverview } from '@serendip/proto';
import { get } from '../../../shared/http/http-client';

/** GET /api/dash/overview (staff): counters, charts, SFU load. */
export const fetchOverview = () => get<DashboardOverview>('/dash/overview');
