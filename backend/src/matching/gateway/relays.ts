import {
  chatMessageSchema,
  iceCandidateSchema,
  networkQualitySchema,
  sessionDescriptionSchema,
  speakingSchema,
  toggleSchema,
  typingSchema,
} from '@serendip/proto';
import type { z } from 'zod/mini';
import type { RelayEvent } from '../coordinator/coordinator.messages.js';

interface Relay<Schema extends z.ZodMiniType> {
  schema: Schema;
  /** The event the partner receives. */
  event: RelayEvent;
  /** What of the request the partner receives (besides `from`): never the target, never anything unchecked. */
  payload: (request: z.infer<Schema>) => Record<string, unknown>;
}

const relay = <Schema extends z.ZodMiniType>(r: Relay<Schema>) => r;

/** spec 7: the client events the server passes on to the partner, each checked against its contract first. */
export const RELAYS = {
  offer: relay({ schema: sessionDescriptionSchema, event: 'offer', payload: (r) => ({ description: r.description }) }),
  answer: relay({
    schema: sessionDescriptionSchema,
    event: 'answer',
    payload: (r) => ({ description: r.description }),
  }),
  'ice-candidate': relay({
    schema: iceCandidateSchema,
    event: 'ice-candidate',
    payload: (r) => ({ candidate: r.candidate }),
  }),
  // Chat text passes through and is never stored or logged.
  sendChatMessage: relay({
    schema: chatMessageSchema,
    event: 'chatMessage',
    payload: (r) => ({ message: r.message, sentAt: new Date().toISOString(), ...(r.id ? { id: r.id } : {}) }),
  }),
  // Only that the sender is typing: the partner's client shows it for a moment.
  typing: relay({ schema: typingSchema, event: 'typing', payload: () => ({}) }),
  'mic-toggle': relay({ schema: toggleSchema, event: 'mic-toggle', payload: (r) => ({ enabled: r.enabled }) }),
  'camera-toggle': relay({ schema: toggleSchema, event: 'camera-toggle', payload: (r) => ({ enabled: r.enabled }) }),
  'speaking-status': relay({
    schema: speakingSchema,
    event: 'speaking-status',
    payload: (r) => ({ speaking: r.speaking }),
  }),
  'network-quality': relay({
    schema: networkQualitySchema,
    event: 'partner-network-quality',
    payload: (r) => ({ quality: r.quality }),
  }),
} as const;

export type RelayName = keyof typeof RELAYS;

/** The first problem of a refused request, named by its field: 'filters.ageRange: the minimum age must not...'. */
export function problemOf(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid request';
  const where = issue.path.map(String).join('.');
  return where ? `${where}: ${issue.message}` : issue.message;
}
