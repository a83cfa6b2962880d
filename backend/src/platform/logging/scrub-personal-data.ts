/**
 * Personal data and secrets that can hide in a log message's text (pino's redaction covers only named keys): what
 * admins read in the System Log carries none (DESIGN.md "Personal data"). Each pattern is replaced by a tag, so the
 * line still says that something was there.
 */
const RULES: Array<[RegExp, string]> = [
  // user:password in a URL, before the e-mail rule sees "password@host".
  [/\/\/[^/\s:@]+:[^/\s@]+@/g, '//[credentials]@'],
  [/\beyJ[\w-]+\.[\w-]+\.[\w-]+/g, '[token]'],
  [/\b(Bearer|Basic)\s+[\w.~+/=-]+/gi, '$1 [token]'],
  // A local part is at most 64 characters (RFC 5321): bounded, a long run without '@' costs linear time, not quadratic.
  [/[\w.!#$%&'*+/=?^`{|}~-]{1,64}@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+/gi, '[email]'],
  // IPv6 (full, compressed, or with an IPv4 tail); checked below so a time of day (12:30:45) is left alone.
  [/(?<![\w:.])(?:[0-9a-f]{0,4}:){2,7}(?:(?:\d{1,3}\.){3}\d{1,3}|[0-9a-f]{1,4})?(?![\w:])/gi, '\u0000ipv6'],
  [/(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?!\.?\d)/g, '[ip]'],
  // International phone numbers (+44 20 7946 0958).
  [/(?<![\w+])\+\d[\d ().-]{6,}\d/g, '[phone]'],
  // Long opaque strings (reset links' tokens, keys), but not UUIDs: ids name no person.
  [/\b(?![0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b)[A-Za-z0-9_-]{32,}\b/g, '[token]'],
];

export function scrubPersonalData(text: string): string {
  let out = text;
  for (const [pattern, tag] of RULES) {
    out =
      tag === '\u0000ipv6'
        ? out.replace(pattern, (candidate) => (isIpv6(candidate) ? '[ip]' : candidate))
        : out.replace(pattern, tag);
  }
  return out;
}

function isIpv6(candidate: string): boolean {
  const colons = candidate.split(':').length - 1;
  return candidate.includes('::') ? colons >= 2 || candidate === '::' : colons === 7;
}
