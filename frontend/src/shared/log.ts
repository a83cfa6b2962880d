/**
 * Where the client reports what spec 8 calls "only logged": failures the user is not told about. One place, so a
 * later error reporter replaces the console here and nowhere else.
 */
export function logError(message: string, error?: unknown): void {
  // eslint-disable-next-line no-console
  console.error(message, error);
}
