/** Subjects of the bus (DESIGN.md "Fan-out: NATS"). */

/** Integration events: `evt.<context>.<Type>`, e.g. `evt.moderation.UserBanned`. */
export function eventSubject(context: string, type: string): string {
  assertToken(context);
  assertToken(type);
  return `evt.${context}.${type}`;
}

/** Deliveries to one user, wherever their sockets are: `user.<id>`. */
export function userSubject(userId: string): string {
  assertToken(userId);
  return `user.${userId}`;
}

/** Does a subject match a pattern with NATS wildcards (`*` one token, `>` the rest)? */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return i === p.length - 1 && s.length > i;
    if (i >= s.length) return false;
    if (p[i] !== '*' && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}

function assertToken(token: string): void {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) throw new Error(`not a valid subject token: ${JSON.stringify(token)}`);
}
