import {
  DiscardPolicy,
  type NatsConnection,
  NatsError,
  RetentionPolicy,
  type StreamConfig,
  StorageType,
  nanos,
} from 'nats';

/** The JetStream stream that keeps integration events for durable subscribers. */
export const EVENT_STREAM = 'SERENDIP_EVENTS';

/** Carries a message's id: JetStream dedupes on it, and our subscribers read it from every message. */
export const MESSAGE_ID_HEADER = 'Nats-Msg-Id';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export const EVENT_STREAM_CONFIG: Partial<StreamConfig> = {
  name: EVENT_STREAM,
  subjects: ['evt.>'],
  // Survives a NATS restart; the event store is still the record, so one replica is enough by default.
  storage: StorageType.File,
  num_replicas: 1,
  retention: RetentionPolicy.Limits,
  discard: DiscardPolicy.Old,
  // The publisher resends after a lost ack; within this window the server stores the resend only once.
  duplicate_window: nanos(2 * MINUTE_MS),
  // How long a durable subscriber may be away and still catch up (beyond that: rebuild from the event store).
  max_age: nanos(7 * DAY_MS),
  max_bytes: 1024 ** 3,
  max_msg_size: 1024 ** 2,
};

/**
 * Creates the stream when it is missing (a new cluster, or a server that lost its storage). An existing
 * stream is left as it is: operators may have tuned its limits or replicas.
 */
export async function ensureEventStream(nc: NatsConnection): Promise<void> {
  const jsm = await nc.jetstreamManager();
  try {
    await jsm.streams.info(EVENT_STREAM);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    await jsm.streams.add(EVENT_STREAM_CONFIG);
  }
}

export function isNotFound(error: unknown): boolean {
  return error instanceof NatsError && error.api_error?.code === 404;
}
