import type { LoginSession } from '@serendip/proto';
import { UAParser } from 'ua-parser-js';
import { countryNameOf } from '../../shared/country-names';

export type DeviceKind = 'desktop' | 'mobile' | 'tablet';

/** How the Active Sessions list names a session (spec 3 "Login session"). */
export interface SessionDevice {
  kind: DeviceKind;
  /** 'Chrome 156 on Linux', 'Mobile Safari 17 on iOS', or 'Unknown browser' when the agent tells nothing. */
  label: string;
  /** 'London, United Kingdom', 'United Kingdom', or 'Unknown location' (the server sends 'GB'). */
  place: string;
}

export const UNKNOWN_LOCATION = 'Unknown location';
const UNKNOWN_BROWSER = 'Unknown browser';

export function describeSession(session: LoginSession): SessionDevice {
  return { ...describeUserAgent(session.userAgent), place: placeOf(session) };
}

export function describeUserAgent(userAgent: string | null): Omit<SessionDevice, 'place'> {
  // An empty string would make the parser read this browser's own agent instead.
  if (!userAgent?.trim()) return { kind: 'desktop', label: UNKNOWN_BROWSER };
  const { browser, os, device } = UAParser(userAgent);
  const browserName = [browser.name, browser.major].filter(Boolean).join(' ');
  const osName = os.name ?? '';
  const label =
    browserName && osName ? `${browserName} on ${osName}` : browserName || (osName ? `${osName} device` : '');
  return { kind: kindOf(device.type), label: label || UNKNOWN_BROWSER };
}

// The parser leaves desktops without a type; consoles, TVs and the like are shown as desktops too.
function kindOf(type: string | undefined): DeviceKind {
  if (type === 'mobile' || type === 'wearable') return 'mobile';
  if (type === 'tablet') return 'tablet';
  return 'desktop';
}

function placeOf({ city, country }: LoginSession): string {
  return [city, country && countryNameOf(country)].filter(Boolean).join(', ') || UNKNOWN_LOCATION;
}

/** When a session started, readable in the user's own locale: 'Mar 11, 2025, 2:05 PM'. */
export function formatSessionStart(createdAt: string, locale?: string): string {
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime())) return 'Unknown time';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
