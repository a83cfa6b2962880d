import { describe, expect, it } from 'vitest';
import { aSession, IPAD_AGENT, IPHONE_AGENT } from './session-fixtures';
import { describeSession, describeUserAgent, formatSessionStart } from './session-device';

describe('describeSession (spec 3 "Login session")', () => {
  it("names the session's country from the ISO code the server sends", () => {
    expect(describeSession(aSession({ city: 'Berlin', country: 'DE' })).place).toBe('Berlin, Germany');
  });

  it('names the browser with its major version and the system', () => {
    expect(describeSession(aSession())).toEqual({
      kind: 'desktop',
      label: 'Chrome 156 on Linux',
      place: 'London, United Kingdom',
    });
  });

  it('tells phones and tablets apart', () => {
    expect(describeUserAgent(IPHONE_AGENT)).toEqual({ kind: 'mobile', label: 'Mobile Safari 17 on iOS' });
    expect(describeUserAgent(IPAD_AGENT)).toEqual({ kind: 'tablet', label: 'Mobile Safari 17 on iOS' });
  });

  it('says what it does not know', () => {
    expect(describeSession(aSession({ userAgent: null, city: null, country: null }))).toEqual({
      kind: 'desktop',
      label: 'Unknown browser',
      place: 'Unknown location',
    });
    // An empty agent must not be read as this browser's own.
    expect(describeUserAgent('  ').label).toBe('Unknown browser');
    expect(describeUserAgent('curl/8.5.0').label).toBe('Unknown browser');
    expect(describeSession(aSession({ city: null })).place).toBe('United Kingdom');
  });
});

describe('formatSessionStart', () => {
  it('reads as a date and time in the given locale', () => {
    expect(formatSessionStart('2025-03-11T14:05:00.000Z', 'en-US')).toMatch(/^Mar 11, 2025, \d{1,2}:05\s?[AP]M$/);
  });

  it('does not print Invalid Date', () => {
    expect(formatSessionStart('yesterday')).toBe('Unknown time');
  });
});
