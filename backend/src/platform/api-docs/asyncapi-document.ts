import { systemSocketQuerySchema, videoHandshakeAuthSchema } from '@serendip/proto';
import { contractSchemas, socketContracts, toJsonSchema } from './contract-schemas.js';
import { API_VERSION } from './openapi-document.js';

/** A key AsyncAPI allows (`media:join` -> `media_join`); the event's own name stays in the message's `name`. */
const keyOf = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, '_');

/** What each namespace's handshake carries, from the schemas its gateway parses it with. */
const handshakes = () => ({
  '/': { bindings: { ws: { query: toJsonSchema(systemSocketQuerySchema, 'input'), bindingVersion: '0.1.0' } } },
  '/video': {
    'x-handshake-auth': {
      description:
        'Socket.IO `auth`: the call it was in, to resume it within the grace period; `fresh` from a new page. A refusal comes as connect_error with `data` VideoHandshakeRefusal.',
      schema: toJsonSchema(videoHandshakeAuthSchema, 'input'),
      refusal: { $ref: '#/components/schemas/VideoHandshakeRefusal' },
    },
  },
});

const CHANNEL: Record<string, { key: string; description: string }> = {
  '/': {
    key: 'system',
    description:
      'The system socket (default namespace) every page opens. Handshake query: `userId` (the session’s own) and `device` (mobile|desktop). A guest may only ping; a signed-in user gets the pushes below, staff also the dashboard’s.',
  },
  '/video': {
    key: 'video',
    description:
      'The video socket (WebSocket only): matching and the call. The handshake is checked against the session cookie; only finished, unbanned accounts with a confirmed address get in. Relays go to the current partner only.',
  },
};

/**
 * The AsyncAPI 3 document of the Socket.IO contracts (proto/src/socket): one channel per namespace, one message per
 * event. `receive` operations are what a client emits (the server receives them), `send` what the server pushes; an
 * event with an acknowledgement has it as the operation's reply.
 */
export function buildAsyncApiDocument(options: { publicUrl: string; accessCookie: string }) {
  const url = new URL(options.publicUrl);
  const channels: Record<string, { address: string; description: string; messages: Record<string, object> }> = {};
  const operations: Record<string, object> = {};
  for (const event of socketContracts()) {
    const channel = CHANNEL[event.namespace];
    if (!channel) throw new Error(`No channel for the socket namespace ${event.namespace}`);
    channels[channel.key] ??= {
      address: event.namespace,
      description: channel.description,
      messages: {},
      ...handshakes()[event.namespace as '/' | '/video'],
    };
    const messages = channels[channel.key]!.messages;
    const side = event.direction === 'clientToServer' ? 'fromClient' : 'toClient';
    const key = `${side}_${keyOf(event.name)}`;
    messages[key] = {
      name: event.name,
      title: event.name,
      ...(event.description ? { summary: event.description } : {}),
      ...(event.payload ? { payload: event.payload } : {}),
    };
    if (event.ack) messages[`${key}_ack`] = { name: `${event.name} (acknowledgement)`, payload: event.ack };
    const channelRef = { $ref: `#/channels/${channel.key}` };
    operations[`${channel.key}_${key}`] = {
      action: event.direction === 'clientToServer' ? 'receive' : 'send',
      channel: channelRef,
      title: `${event.direction === 'clientToServer' ? 'Client emits' : 'Server pushes'} ${event.name}`,
      messages: [{ $ref: `#/channels/${channel.key}/messages/${key}` }],
      ...(event.ack
        ? { reply: { channel: channelRef, messages: [{ $ref: `#/channels/${channel.key}/messages/${key}_ack` }] } }
        : {}),
    };
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Serendip sockets',
      version: API_VERSION,
      description:
        'The Socket.IO 4 events of the Serendip backend, from the typed event maps in proto/src/socket. Each event carries one JSON payload; an acknowledgement is the answer passed to the emitter’s callback. The HTTP API is at /api/docs.',
    },
    defaultContentType: 'application/json',
    servers: {
      serendip: {
        host: url.host,
        protocol: url.protocol === 'https:' ? 'wss' : 'ws',
        pathname: '/socket.io',
        description: 'Socket.IO (Engine.IO 4) on the API host; the namespace is the channel address.',
        security: [{ $ref: '#/components/securitySchemes/session' }],
      },
    },
    channels,
    operations,
    components: {
      schemas: contractSchemas(),
      securitySchemes: {
        session: {
          type: 'httpApiKey',
          in: 'cookie',
          name: options.accessCookie,
          description: 'The HttpOnly access cookie set at sign-in, sent with the handshake.',
        },
      },
    },
  };
}
