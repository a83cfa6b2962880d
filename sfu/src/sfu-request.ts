import type { MediaParameters, SfuRequest } from '@serendip/proto';
import { SfuError } from './media/sfu-error.js';

type RequestType = SfuRequest['type'];

/** The fields each request needs besides `type`: an id (non-empty string), a mediasoup object, or a kind. */
const FIELDS: { [T in RequestType]: Record<string, 'id' | 'object' | 'kind'> } = {
  createRoom: { roomId: 'id' },
  joinRoom: { roomId: 'id', peerId: 'id' },
  connectTransport: { roomId: 'id', peerId: 'id', transportId: 'id', dtlsParameters: 'object' },
  produce: { roomId: 'id', peerId: 'id', kind: 'kind', rtpParameters: 'object' },
  consume: { roomId: 'id', peerId: 'id', producerId: 'id', rtpCapabilities: 'object' },
  resumeConsumer: { roomId: 'id', peerId: 'id', consumerId: 'id' },
  closeRoom: { roomId: 'id' },
  snapshot: { roomId: 'id', peerId: 'id' },
  load: {},
};

/**
 * Checks a request from the bus (issue 8: a bad shape answers 'invalid', it never throws across the port).
 * mediasoup checks the inside of its own parameter objects.
 */
export function parseSfuRequest(raw: unknown): SfuRequest {
  if (!isObject(raw)) throw new SfuError('invalid', 'The request is not an object.');
  const type = raw.type;
  if (typeof type !== 'string' || !Object.hasOwn(FIELDS, type)) {
    throw new SfuError('invalid', `Unknown request type: ${JSON.stringify(type)}.`);
  }
  for (const [field, shape] of Object.entries(FIELDS[type as RequestType])) {
    const value = raw[field];
    const ok =
      shape === 'id'
        ? typeof value === 'string' && value.length > 0
        : shape === 'kind'
          ? value === 'audio' || value === 'video'
          : isObject(value);
    if (!ok) throw new SfuError('invalid', `${type}: ${field} is missing or malformed.`);
  }
  return raw as SfuRequest;
}

function isObject(value: unknown): value is MediaParameters {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
