import { describe, expect, it } from 'vitest';
import { isEventSubject } from './event-subjects.js';
import { eventSubject, subjectMatches, userSubject } from './subjects.js';

describe('subjectMatches (NATS wildcards)', () => {
  it.each([
    ['evt.moderation.UserBanned', 'evt.moderation.UserBanned', true],
    ['evt.moderation.UserBanned', 'evt.moderation.UserUnbanned', false],
    ['evt.*.UserBanned', 'evt.moderation.UserBanned', true],
    ['evt.*', 'evt.moderation.UserBanned', false],
    ['evt.*.*', 'evt.moderation.UserBanned', true],
    ['evt.*.*', 'evt.moderation', false],
    ['evt.>', 'evt.moderation.UserBanned', true],
    ['evt.>', 'evt.moderation', true],
    ['evt.>', 'evt', false],
    ['>', 'user.u1', true],
    ['*.u1', 'user.u1', true],
    ['user.*', 'user.u1.extra', false],
    ['user.>', 'user.u1.extra', true],
    ['evt.moderation', 'evt.moderation.UserBanned', false],
    ['evt.moderation.UserBanned.x', 'evt.moderation.UserBanned', false],
    ['user.u1', 'user.u10', false],
  ])('%s matches %s: %s', (pattern, subject, matches) => {
    expect(subjectMatches(pattern, subject)).toBe(matches);
  });
});

describe('subject helpers', () => {
  it('builds evt.<context>.<Type> and user.<id>', () => {
    expect(eventSubject('moderation', 'UserBanned')).toBe('evt.moderation.UserBanned');
    expect(userSubject('3f2c-11')).toBe('user.3f2c-11');
  });

  it('refuses tokens that would change routing (dots, wildcards, blanks)', () => {
    for (const bad of ['a.b', '*', '>', '', 'a b']) {
      expect(() => userSubject(bad)).toThrow(/not a valid subject token/);
      expect(() => eventSubject(bad, 'UserBanned')).toThrow(/not a valid subject token/);
    }
  });

  it('tells integration-event subjects from per-user ones', () => {
    expect(isEventSubject('evt.ops.ServiceStarted')).toBe(true);
    expect(isEventSubject('evt.>')).toBe(true);
    expect(isEventSubject('user.u1')).toBe(false);
    expect(isEventSubject('events.x')).toBe(false);
  });
});
