import { randomUUID } from 'node:crypto';
import type { AuditTrailEntry, AuditTrailPage, DashUserDetails, DashUserList } from '@serendip/proto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../test-support/api-client.js';
import { signedInAdmin, signedInModerator } from '../test-support/admins.js';
import { reportedAndBanned } from '../test-support/reported-call.js';
import { startTestApp, type TestApp } from '../test-support/test-app.js';
import { VIDEO_USER_PASSWORD, type VideoClient, videoUser } from '../test-support/video-users.js';

/**
 * User management over the real app (spec 2 /dashboard/user-management and view-details, spec 6 Admin): search and
 * paging in SQL, a person's details, and their audit trail from the log with actors, reasons and every look staff
 * took at them; moderators see no e-mail, IP or personal data; a deleted person's data reads as erased.
 */
describe('dashboard: user management and the audit trail', () => {
  let test: TestApp;
  let admin: ApiClient;
  let adminId: string;
  let moderator: ApiClient;
  let moderatorId: string;
  const open: VideoClient[] = [];

  beforeAll(async () => {
    test = await startTestApp({ MEDIA_MODE: 'p2p' });
    ({ admin, adminId } = await signedInAdmin(test));
    ({ moderator, moderatorId } = await signedInModerator(test));
  }, 60_000);
  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
  });
  afterAll(async () => {
    await test?.close();
  });

  const trailOf = async (as: ApiClient, userId: string, page = 1) => {
    const res = await as.call('GET', `/dash/users/${userId}/audit-trail?page=${page}`);
    expect(res.status).toBe(200);
    return res.body as AuditTrailPage;
  };
  /** Polls the trail until `check` finds what it wants (the index projection follows the log a moment later). */
  const trailUntil = async (as: ApiClient, userId: string, check: (items: AuditTrailEntry[]) => boolean) => {
    let last: AuditTrailPage | undefined;
    await expect.poll(async () => check((last = await trailOf(as, userId)).items), { timeout: 10_000 }).toBe(true);
    return last!;
  };

  it('lists people newest first, 25 a page, searched by name and username; by e-mail for admins only', async () => {
    const tag = `Kx${randomUUID().slice(0, 6)}`;
    const people = [];
    // 27 people sharing a first-name prefix: a full page and two on the next.
    for (let batch = 0; batch < 3; batch++) {
      people.push(
        ...(await Promise.all(
          Array.from({ length: 9 }, (_, i) =>
            videoUser(test.base, { firstName: `${tag}${batch}${i}`, confirmed: false }),
          ),
        )),
      );
    }
    const first = (await admin.call('GET', `/dash/users?search=${tag.toLowerCase()}&page=1`)).body as DashUserList;
    const second = (await admin.call('GET', `/dash/users?search=${tag}&page=2`)).body as DashUserList;
    expect(first).toMatchObject({ page: 1, total: 27, totalPages: 2 });
    expect(first.items).toHaveLength(25);
    expect(second.items).toHaveLength(2);
    const ids = [...first.items, ...second.items].map((r) => r._id);
    expect(new Set(ids)).toEqual(new Set(people.map((p) => p.user._id)));
    const times = [...first.items, ...second.items].map((r) => r.registeredAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(first.items[0]).toMatchObject({
      role: 'user',
      status: 'active',
      emailAddress: expect.stringContaining('@'),
    });

    // One person by username, by their full name, and by e-mail address (admins only).
    const someone = people[13]!.user;
    const byUsername = (await moderator.call('GET', `/dash/users?search=${someone.username}`)).body as DashUserList;
    expect(byUsername.items.map((r) => r._id)).toEqual([someone._id]);
    expect(byUsername.items[0]).not.toHaveProperty('emailAddress');
    const fullName = encodeURIComponent(`${someone.firstName} Lovelace`);
    expect(((await moderator.call('GET', `/dash/users?search=${fullName}`)).body as DashUserList).total).toBe(1);
    const email = encodeURIComponent(someone.emailAddress);
    const adminByEmail = (await admin.call('GET', `/dash/users?search=${email}`)).body as DashUserList;
    expect(adminByEmail.items).toEqual([
      expect.objectContaining({ _id: someone._id, emailAddress: someone.emailAddress }),
    ]);
    expect(((await moderator.call('GET', `/dash/users?search=${email}`)).body as DashUserList).total).toBe(0);

    // Bad input is a 400 with a message; a search matching nobody is an empty page.
    expect((await admin.call('GET', '/dash/users?page=0')).body).toMatchObject({
      statusCode: 400,
      message: ['page must be at least 1'],
    });
    expect((await admin.call('GET', '/dash/users?search=nobody-has-this-name')).body).toEqual({
      items: [],
      page: 1,
      totalPages: 1,
      total: 0,
    });
  }, 60_000);

  it('records who opened a person, and the trail lists the report and the ban with their actors', async () => {
    const { ada, bob, reportId } = await reportedAndBanned(test, admin, open, '#c33');
    const look = await fetch(`${test.base}/api/admin/reports/${reportId}/screenshot`, {
      headers: { Cookie: admin.cookieHeader(), 'X-Forwarded-For': admin.ip },
    });
    expect(look.headers.get('content-type')).toBe('image/jpeg');

    // The details: profile, status with the ban on now, sessions, the ban history, report counts.
    await expect
      .poll(async () => ((await admin.call('GET', `/dash/users/${bob.user._id}`)).body as DashUserDetails).bans.length)
      .toBe(1);
    const details = (await admin.call('GET', `/dash/users/${bob.user._id}`)).body as DashUserDetails;
    expect(details.profile).toMatchObject({ _id: bob.user._id, firstName: 'Bob', emailAddress: bob.user.emailAddress });
    // A calendar day, as the person gave it (not a midnight timestamp).
    expect(details.profile.birthDate).toBe(bob.user.userBirthDate);
    expect(details.status).toMatchObject({
      role: 'user',
      status: 'banned',
      currentBan: { reason: 'REASON-SECRET harassment', bannedBy: { _id: adminId }, reportId },
    });
    expect(details.sessions?.length).toBeGreaterThan(0);
    expect(details.sessions?.[0]).toHaveProperty('ip');
    expect(details.reports).toEqual({ filed: 0, against: 1 });
    expect(
      ((await admin.call('GET', `/dash/users?search=${bob.user.username}`)).body as DashUserList).items[0],
    ).toMatchObject({ status: 'banned' });

    // The trail: the report (by Ada) and the ban (by the admin, with its reason), and the admin's look at Bob.
    const trail = await trailUntil(admin, bob.user._id, (items) =>
      ['ReportFiled', 'UserBanned', 'StaffViewedUser'].every((type) => items.some((e) => e.type === type)),
    );
    const report = trail.items.find((e) => e.type === 'ReportFiled')!;
    expect(report).toMatchObject({
      actor: { kind: 'user', _id: ada.user._id, firstName: 'Ada' },
      reason: 'harassment',
      summary: expect.stringContaining('details: DETAILS-SECRET he shouted'),
    });
    expect(trail.items.find((e) => e.type === 'UserBanned')).toMatchObject({
      actor: { kind: 'user', _id: adminId },
      reason: 'REASON-SECRET harassment',
    });
    // The look at the evidence about him is in his trail, by the admin.
    await trailUntil(admin, bob.user._id, (items) =>
      items.some((e) => e.type === 'ReportScreenshotViewed' && e.actor.kind === 'user' && e.actor._id === adminId),
    );
    expect(trail.items.find((e) => e.type === 'StaffViewedUser')).toMatchObject({
      actor: { kind: 'user', _id: adminId },
      summary: expect.stringContaining('what: details'),
    });
    // Newest first: the ban came after the report.
    const types = trail.items.map((e) => e.type);
    expect(types.indexOf('UserBanned')).toBeLessThan(types.indexOf('ReportFiled'));
    expect(trail.subjectErased).toBe(false);
    // The report is in the reporter's trail too, and the look in the admin's own: staff are audited like everyone.
    await trailUntil(admin, ada.user._id, (items) => items.some((e) => e.type === 'ReportFiled'));
    await trailUntil(admin, adminId, (items) =>
      items.some((e) => e.type === 'StaffViewedUser' && e.summary.includes(bob.user._id.slice(0, 8))),
    );

    // A moderator: no e-mail, phone or IP, and the personal data in the trail hidden; their look is recorded too.
    const seen = (await moderator.call('GET', `/dash/users/${bob.user._id}`)).body as DashUserDetails;
    expect(seen.profile).not.toHaveProperty('emailAddress');
    expect(seen.profile).not.toHaveProperty('phoneNumber');
    expect(seen).not.toHaveProperty('sessions');
    const moderatorTrail = await trailUntil(moderator, bob.user._id, (items) =>
      items.some((e) => e.type === 'StaffViewedUser' && e.actor.kind === 'user' && e.actor._id === moderatorId),
    );
    expect(moderatorTrail.items.find((e) => e.type === 'UserBanned')).toMatchObject({ reason: 'hidden' });
    expect(JSON.stringify(moderatorTrail)).not.toContain('SECRET');
    expect(JSON.stringify(moderatorTrail)).not.toContain(bob.user.emailAddress);

    // Once Bob deletes the account, his personal data reads as erased; who did what stays.
    const deleted = await bob.api.call('POST', '/user/delete-account', { currentPassword: VIDEO_USER_PASSWORD });
    expect(deleted.status).toBe(200);
    const erased = await trailUntil(admin, bob.user._id, (items) => items.some((e) => e.type === 'AccountDeleted'));
    expect(erased.subjectErased).toBe(true);
    expect(erased.items.find((e) => e.type === 'UserBanned')).toMatchObject({
      actor: { kind: 'user', _id: adminId },
      reason: 'erased',
    });
    expect(erased.items.find((e) => e.type === 'ProfileCompleted')?.summary).toContain('firstName: erased');
    expect(JSON.stringify(erased)).not.toContain('REASON-SECRET');
    expect(JSON.stringify(erased)).not.toContain(bob.user.emailAddress);
    const gone = (await admin.call('GET', `/dash/users/${bob.user._id}`)).body as DashUserDetails;
    expect(gone.status.status).toBe('deleted');
    expect(gone.profile).not.toHaveProperty('emailAddress');
  }, 60_000);

  it('pages the trail: 25 a page, newest first, back to the registration; every page read is a look, and the pages hold still', async () => {
    const eve = await videoUser(test.base, { firstName: 'Eve' });
    // Each look at Eve's details is an event about her: with her own, more than a page.
    for (let i = 0; i < 26; i++) expect((await admin.call('GET', `/dash/users/${eve.user._id}`)).status).toBe(200);
    await expect.poll(async () => (await trailOf(admin, eve.user._id)).total, { timeout: 10_000 }).toBeGreaterThan(27);
    const looksBy = (items: AuditTrailEntry[], staffId: string, what: string) =>
      items.filter(
        (e) =>
          e.type === 'StaffViewedUser' &&
          e.actor.kind === 'user' &&
          e.actor._id === staffId &&
          e.summary.includes(`what: ${what}`),
      ).length;

    // The moderator turns the pages with one Idempotency-Key (a client retrying): each read is its own look.
    const key = { 'Idempotency-Key': `trail-${randomUUID()}` };
    const firstRes = await moderator.call('GET', `/dash/users/${eve.user._id}/audit-trail?page=1`, undefined, key);
    expect(firstRes.status).toBe(200);
    const first = firstRes.body as AuditTrailPage;
    expect(first.items).toHaveLength(25);
    expect(first.totalPages).toBe(2);
    expect(first.asOf).toEqual(expect.any(String));
    // The look at page 1 lands on top of the trail before page 2 is read: with `asOf` the pages do not shift.
    await expect
      .poll(async () => looksBy((await trailOf(admin, eve.user._id)).items, moderatorId, 'audit-trail'), {
        timeout: 10_000,
      })
      .toBe(1);
    const secondRes = await moderator.call(
      'GET',
      `/dash/users/${eve.user._id}/audit-trail?page=2&asOf=${encodeURIComponent(first.asOf!)}`,
      undefined,
      key,
    );
    expect(secondRes.status).toBe(200);
    const second = secondRes.body as AuditTrailPage;
    expect(second).toMatchObject({ page: 2, totalPages: 2, total: first.total, asOf: first.asOf });
    expect(second.items).toHaveLength(first.total - 25);
    expect(second.items.at(-1)?.type).toBe('UserRegistered');
    expect(second.items.at(-1)?.summary).not.toContain('passwordHash');
    const ids = new Set(second.items.map((e) => e.id));
    expect(first.items.filter((e) => ids.has(e.id))).toEqual([]);
    const times = [...first.items, ...second.items].map((e) => e.at);
    expect(times).toEqual([...times].sort().reverse());
    // Both reads are on record, as two looks, though the key was the same.
    await expect
      .poll(async () => looksBy((await trailOf(admin, eve.user._id)).items, moderatorId, 'audit-trail'), {
        timeout: 10_000,
      })
      .toBe(2);

    // Two looks at the details with one key are two records too.
    for (let i = 0; i < 2; i++) {
      expect((await moderator.call('GET', `/dash/users/${eve.user._id}`, undefined, key)).status).toBe(200);
    }
    await expect
      .poll(async () => looksBy((await trailOf(admin, eve.user._id)).items, moderatorId, 'details'), {
        timeout: 10_000,
      })
      .toBe(2);
    expect((await admin.call('GET', `/dash/users/${eve.user._id}/audit-trail?page=2&asOf=x`)).status).toBe(400);
    // A position past what Postgres can hold is as malformed as any other (400, not a failed query).
    expect(
      (await admin.call('GET', `/dash/users/${eve.user._id}/audit-trail?page=2&asOf=9999999999999999999:1`)).status,
    ).toBe(400);
  }, 60_000);

  it('shows a moderator what a member sees of a person, plus the moderation facts; the rest is for admins', async () => {
    const zoe = await videoUser(test.base, { firstName: 'Zoe', gender: 'female' });
    const byAdmin = (await admin.call('GET', `/dash/users/${zoe.user._id}`)).body as DashUserDetails;
    expect(byAdmin.profile).toMatchObject({
      firstName: 'Zoe',
      lastName: 'Lovelace',
      birthDate: zoe.user.userBirthDate,
      age: expect.any(Number),
    });
    expect(byAdmin.profile).toHaveProperty('city');
    expect(byAdmin.sessions?.length).toBeGreaterThan(0);

    const res = await moderator.call('GET', `/dash/users/${zoe.user._id}`);
    expect(res.status).toBe(200);
    const byModerator = res.body as DashUserDetails;
    expect(byModerator.profile).toMatchObject({
      _id: zoe.user._id,
      firstName: 'Zoe',
      username: zoe.user.username,
      gender: 'female',
      age: byAdmin.profile.age,
    });
    for (const field of ['avatar', 'country', 'bio']) expect(byModerator.profile).toHaveProperty(field);
    for (const field of ['lastName', 'birthDate', 'city', 'emailAddress', 'phoneNumber']) {
      expect(byModerator.profile).not.toHaveProperty(field);
    }
    expect(byModerator).not.toHaveProperty('sessions');
    expect(byModerator.status).toMatchObject({ role: 'user', status: 'active', currentBan: null });
    expect(byModerator).toMatchObject({ bans: [], reports: { filed: 0, against: 0 } });
    const text = JSON.stringify(byModerator);
    expect(text).not.toContain('Lovelace');
    expect(text).not.toContain(zoe.user.userBirthDate);

    // The list: no last name for a moderator either; the trail's summaries hide the same fields.
    const row = ((await moderator.call('GET', `/dash/users?search=${zoe.user.username}`)).body as DashUserList)
      .items[0];
    expect(row).toMatchObject({ _id: zoe.user._id, firstName: 'Zoe' });
    expect(row).not.toHaveProperty('lastName');
    const trail = await trailUntil(moderator, zoe.user._id, (items) =>
      items.some((e) => e.type === 'ProfileCompleted'),
    );
    const completed = trail.items.find((e) => e.type === 'ProfileCompleted')!;
    expect(completed.summary).toContain('lastName: hidden');
    expect(completed.summary).toContain('birthDate: hidden');
    expect(JSON.stringify(trail)).not.toContain('Lovelace');
    expect(JSON.stringify(trail)).not.toContain(zoe.user.userBirthDate);
  }, 60_000);

  it("lists what the person was told in their trail: an admin's announcement to them, by whom", async () => {
    const someone = await videoUser(test.base, { firstName: 'Tess' });
    const sent = await admin.call('POST', '/dash/announcements', {
      title: 'About your account',
      description: 'Please read our community rules.',
      forceOpen: false,
      userId: someone.user._id,
    });
    expect(sent.status).toBe(201);
    const trail = await trailUntil(admin, someone.user._id, (items) =>
      items.some((item) => item.type === 'NotificationSent'),
    );
    const told = trail.items.find((item) => item.type === 'NotificationSent')!;
    expect(told.actor).toMatchObject({ kind: 'user', _id: adminId });
  });

  it('answers 403 to a signed-in non-staff user, 404 for an unknown id, and 401 to a guest', async () => {
    const someone = await videoUser(test.base, { firstName: 'Sam' });
    const paths = ['/dash/users', `/dash/users/${someone.user._id}`, `/dash/users/${someone.user._id}/audit-trail`];
    for (const path of paths) expect((await someone.api.call('GET', path)).status).toBe(403);
    expect((await admin.call('GET', '/dash/users/not-a-uuid')).status).toBe(404);
    expect((await admin.call('GET', `/dash/users/${randomUUID()}`)).status).toBe(404);
    expect((await admin.call('GET', `/dash/users/${someone.user._id}/audit-trail?page=x`)).status).toBe(400);
    const guest = await fetch(`${test.base}/api/dash/users`);
    expect(guest.status).toBe(401);
  });
});
