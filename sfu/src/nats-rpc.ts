import type { SfuRpcPort } from '@serendip/proto';
import { randomUUID } from 'node:crypto';
import { headers, type NatsConnection } from 'nats';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The SFU's RPC over NATS request/reply (DESIGN.md "Shape"), for a standalone node; messages are JSON. */
export function natsRpcPort(nc: NatsConnection): SfuRpcPort {
  return {
    serve(subject, handler, options) {
      const subscription = nc.subscribe(subject, {
        queue: options?.queue,
        callback: (error, message) => {
          if (error) return;
          // A body that is not JSON reaches the handler as undefined, which answers it 'invalid'.
          let request: unknown;
          try {
            request = JSON.parse(decoder.decode(message.data));
          } catch {
            request = undefined;
          }
          // The SFU's handlers answer every failure as a reply; a rejection here would be a bug, left to time out.
          // A connection closing or draining refuses the answer; the asker times out, the process stays up.
          handler(request)
            .then((answer) => message.respond(encoder.encode(JSON.stringify(answer))))
            .catch(() => undefined);
        },
      });
      return { close: () => subscription.drain() };
    },
    publish: async (subject, data) => {
      // The backend's bus drops a message without an id (its repeats are told apart by it).
      const h = headers();
      h.set('Nats-Msg-Id', randomUUID());
      nc.publish(subject, encoder.encode(JSON.stringify(data)), { headers: h });
    },
  };
}
