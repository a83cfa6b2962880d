import { validate } from 'uuid';

/**
 * Our ids (accounts, calls, reports, cases, snapshots) are UUIDs. Anything else from a URL or a body names nothing,
 * and must not reach a uuid column or a stream name (junk there is a 500, not a 404).
 */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && validate(value);
