import type { MediaConsumeRequest, MediaJoinAnswer } from '@serendip/proto';
import { Device, FakeHandler, testFakeParameters } from 'mediasoup-client';
import { describe, expect, it, vi } from 'vitest';
import { RelayCall, type RelaySignalling } from './relay-call';

/** The server's side of the relay's signalling, played by the test: it records every request. */
function fakeSignalling(join: Partial<MediaJoinAnswer> = {}) {
  const requests: [string, unknown][] = [];
  let producers = 0;
  const signal: RelaySignalling = {
    join: async () => {
      requests.push(['join', {}]);
      return {
        routerRtpCapabilities: testFakeParameters.generateRouterRtpCapabilities(),
        sendTransport: testFakeParameters.generateTransportRemoteParameters(),
        recvTransport: testFakeParameters.generateTransportRemoteParameters(),
        producers: [],
        ...join,
      } as unknown as MediaJoinAnswer;
    },
    connect: async (request) => void requests.push(['connect', request.transportId]),
    produce: async (request) => {
      requests.push(['produce', request.kind]);
      producers += 1;
      return { producerId: `mine-${producers}` };
    },
    consume: async (request: MediaConsumeRequest) => {
      requests.push(['consume', request.producerId]);
      const answer = testFakeParameters.generateConsumerRemoteParameters({
        id: `consumer-of-${request.producerId}`,
        codecMimeType: 'video/VP8',
      });
      return { ...answer, consumerId: answer.id, producerId: request.producerId } as never;
    },
    resume: async (request) => void requests.push(['resume', request.consumerId]),
  };
  return { signal, requests };
}

const fakeDevice = async () => new Device({ handlerFactory: FakeHandler.createFactory(testFakeParameters) });

/** Enough of a camera track for mediasoup-client's fake handler. */
function aTrack(kind: 'audio' | 'video'): MediaStreamTrack {
  return {
    id: `track-${kind}`,
    kind,
    enabled: true,
    readyState: 'live',
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    stop: vi.fn(),
  } as unknown as MediaStreamTrack;
}

function aRelay(join: Partial<MediaJoinAnswer> = {}) {
  const server = fakeSignalling(join);
  const tracks: MediaStreamTrack[] = [];
  const states: RTCPeerConnectionState[] = [];
  const relay = new RelayCall(
    server.signal,
    { track: (track) => tracks.push(track), connectionState: (state) => states.push(state) },
    fakeDevice,
  );
  return { relay, tracks, states, requests: server.requests };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('a call relayed through the SFU, on mediasoup-client', () => {
  it('joins, connects the send transport once and produces each local track without stopping it', async () => {
    const { relay, requests, states } = aRelay();
    const camera = aTrack('video');
    await relay.join([aTrack('audio'), camera]);
    expect(requests.map(([name]) => name)).toEqual(['join', 'connect', 'produce', 'produce']);
    expect(requests.filter(([name]) => name === 'produce').map(([, kind]) => kind)).toEqual(['audio', 'video']);
    expect(states).toEqual(['connecting']);
    relay.close();
    expect(camera.stop).not.toHaveBeenCalled();
  });

  it("receives the partner's producers from the join and later ones once each, resuming every consumer", async () => {
    const { relay, requests, tracks } = aRelay({
      producers: [{ producerId: 'bob-video', kind: 'video' }],
    });
    // Announced while the join is still under way: waits for the receive transport.
    const joined = relay.join([]);
    relay.addProducer('bob-audio');
    relay.addProducer('bob-audio');
    await joined;
    await settle();
    relay.addProducer('bob-video');
    await settle();

    const consumed = requests.filter(([name]) => name === 'consume').map(([, id]) => id);
    expect(consumed.sort()).toEqual(['bob-audio', 'bob-video']);
    expect(requests.filter(([name]) => name === 'resume').map(([, id]) => id)).toEqual(
      consumed.map((id) => `consumer-of-${id}`),
    );
    expect(tracks).toHaveLength(2);
  });

  it('stops quietly when closed during the join, producing nothing', async () => {
    const { relay, requests, tracks } = aRelay({ producers: [{ producerId: 'bob-video', kind: 'video' }] });
    const joined = relay.join([aTrack('video')]);
    relay.close();
    await expect(joined).resolves.toBeUndefined();
    await settle();
    expect(requests.map(([name]) => name)).toEqual(['join']);
    expect(tracks).toEqual([]);
  });

  it('rejects when the server refuses the join', async () => {
    const { signal } = fakeSignalling();
    signal.join = () => Promise.reject(new Error('Relay is unavailable'));
    const relay = new RelayCall(signal, { track: () => undefined, connectionState: () => undefined }, fakeDevice);
    await expect(relay.join([])).rejects.toThrow('Relay is unavailable');
  });
});
