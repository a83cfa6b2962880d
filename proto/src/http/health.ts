import { z } from 'zod/mini';

/** Answer of `GET /api/health` (spec 7: "message; 200 means up, anything else down"). */
export const healthAnswerSchema = z.object({
  message: z.string().check(z.minLength(1)),
  /** Why the service is down; present only on a 503. */
  reason: z.optional(z.string()),
});
export type HealthAnswer = z.infer<typeof healthAnswerSchema>;

export const HEALTH_PATH = '/api/health';

/** Texts of the health answer, shared so the client can tell up from down without guessing. */
export const HEALTH_MESSAGES = {
  up: 'Serendip is up',
  down: 'Serendip is down',
} as const;
