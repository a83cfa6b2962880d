import type { DashboardCountersPush, DashboardOverview } from '@serendip/proto';
import { describe, expect, it } from 'vitest';
import { signedInAdmin, signedInModerator } from '../test-support/admins.js';
import { eventually } from '../test-support/eventually.js';
import {
  ANYONE,
  nextEvent,
  openSystemSocket,
  type SystemClient,
  videoTestApp,
  videoUser,
} from '../test-support/video-users.js';

/** Every dashboardCounters push a system socket hears. */
function countersHeard(socket: SystemClient) {
  const heard: DashboardCountersPush[] = [];
  socket.on('dashboardCounters', (push) => heard.push(push));
  return heard;
}

describe('Dashboard overview: live counters for staff (spec 2 "Admin dashboard")', () => {
  const setup = videoTestApp();
  const { open } = setup;
  const systemSockets: SystemClient[] = [];

  it('two users matching raise "in calls" on the admin\'s and the moderator\'s sockets, and the overview agrees; a user hears none', async () => {
    const test = setup.app;
    const { admin } = await signedInAdmin(test);
    const { moderator } = await signedInModerator(test);
    const ada = await videoUser(test.base, { firstName: 'Ada' });
    const bob = await videoUser(test.base, { firstName: 'Bob', gender: 'male' });

    const before = (await admin.call('GET', '/dash/overview')).body as DashboardOverview;
    expect(before.counters.inCalls).toBe(0);
    expect(before.charts.hours).toHaveLength(24);
    expect(before.charts.days).toHaveLength(14);

    const adminSocket = await openSystemSocket(test.base, admin);
    const moderatorSocket = await openSystemSocket(test.base, moderator);
    const adaSystem = await openSystemSocket(test.base, ada.api);
    systemSockets.push(adminSocket, moderatorSocket, adaSystem);
    const adminHeard = countersHeard(adminSocket);
    const moderatorHeard = countersHeard(moderatorSocket);
    const adaHeard = countersHeard(adaSystem);
    // Three signed-in people have the app open now (the admin, the moderator, Ada): online now counts them.
    await eventually(
      () => adminHeard.some((p) => p.counters.onlineNow === 3),
      8_000,
      () => `online now: ${JSON.stringify(adminHeard.map((p) => p.counters.onlineNow))}`,
    );

    const adaSocket = await ada.connect();
    const bobSocket = await bob.connect();
    open.push(adaSocket, bobSocket);
    const adaFound = nextEvent(adaSocket, 'matchFound');
    await adaSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    await eventually(
      () => adminHeard.some((p) => p.counters.searching === 1),
      5_000,
      () => `searching: ${JSON.stringify(adminHeard.map((p) => p.counters.searching))}`,
    );
    await bobSocket.emitWithAck('startMatching', { filters: ANYONE, deviceType: 'desktop' });
    await adaFound;

    const inCall = (p: DashboardCountersPush) => p.counters.inCalls === 1 && p.counters.searching === 0;
    await eventually(
      () => adminHeard.some(inCall),
      5_000,
      () => `admin heard ${JSON.stringify(adminHeard)}`,
    );
    await eventually(
      () => moderatorHeard.some(inCall),
      5_000,
      () => `moderator heard ${JSON.stringify(moderatorHeard)}`,
    );
    const overview = (await admin.call('GET', '/dash/overview')).body as DashboardOverview;
    expect(overview.counters).toMatchObject({ inCalls: 1, relayedCalls: 0, searching: 0, onlineNow: 3 });
    // The match is in this hour's bar and today's peer-to-peer share once the read model takes it in.
    let charts = overview.charts;
    for (let tries = 0; charts.hours.at(-1)!.matches < 1 && tries < 50; tries++) {
      await new Promise((r) => setTimeout(r, 100));
      charts = ((await admin.call('GET', '/dash/overview')).body as DashboardOverview).charts;
    }
    expect(charts.hours.at(-1)!.matches).toBe(1);
    expect(charts.days.at(-1)).toMatchObject({ p2p: 1, relayed: 0 });

    // Ada leaves the call: the count goes down again.
    await adaSocket.emitWithAck('leaveVideoRoom', { next: false });
    await eventually(
      () => adminHeard.at(-1)?.counters.inCalls === 0,
      5_000,
      () => `admin heard ${JSON.stringify(adminHeard.at(-1))}`,
    );
    // Its length joins this hour's median call length.
    for (let tries = 0; charts.hours.at(-1)!.medianCallMs === null && tries < 50; tries++) {
      await new Promise((r) => setTimeout(r, 100));
      charts = ((await admin.call('GET', '/dash/overview')).body as DashboardOverview).charts;
    }
    expect(charts.hours.at(-1)!.medianCallMs).toBeGreaterThan(0);

    // A signed-in user's system socket heard none of it; nor may the user read the overview.
    expect(adaHeard).toEqual([]);
    expect((await ada.api.call('GET', '/dash/overview')).status).toBe(403);
    for (const socket of systemSockets.splice(0)) socket.close();
  }, 60_000);
});
