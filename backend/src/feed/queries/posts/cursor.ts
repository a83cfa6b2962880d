import { DomainError } from '../../../platform/cqrs/decider.js';

/** Pages' cursors are opaque to clients: the position (`seq`, or a time and id) of the last item they were given. */
export const encodeCursor = (position: string) => Buffer.from(position, 'utf8').toString('base64url');

const MAX_POSITION = 9_223_372_036_854_775_807n;

/** undefined for none; a cursor this server did not make is a 400 naming the field. */
export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const position = /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  // Within a Postgres bigint: a larger one names nothing this server could have given.
  if (!/^\d{1,19}$/.test(position) || BigInt(position) > MAX_POSITION) throw badCursor();
  return position;
}

export const badCursor = () =>
  new DomainError('bad-cursor', 'must be a cursor from the previous page', { kind: 'invalid', field: 'cursor' });
