import { spawn } from 'node:child_process';
import type { types } from 'mediasoup';
import type { Room } from '../media/room.js';

const SSRC = 22_222_222;
const PAYLOAD_TYPE = 101;

export interface Vp8SourceOptions {
  /**
   * Every frame a keyframe: stands in for a browser, which answers each keyframe request with one, so the
   * keyframe requests that reach the sender can be counted against what it sends.
   */
  keyFrameEveryFrame?: boolean;
}

/**
 * Real video for a peer without a browser: ffmpeg encodes a 640x480 test pattern to VP8 and sends it as RTP to a
 * PlainTransport producer (comedia: the transport learns ffmpeg's address from the first packet).
 */
export async function startVp8Source(
  room: Room,
  peerId: string,
  { keyFrameEveryFrame = false }: Vp8SourceOptions = {},
): Promise<{ producerId: string; producer: types.Producer; stop(): void }> {
  const transport = await room.router.createPlainTransport({ listenIp: '127.0.0.1', comedia: true, rtcpMux: false });
  // Made by the room, under the same rules as a browser's producer.
  const producer = await room.produceFrom(peerId, transport, 'video', {
    // PLI as a browser offers it: the worker asks the sender for keyframes over RTCP.
    codecs: [
      {
        mimeType: 'video/VP8',
        payloadType: PAYLOAD_TYPE,
        clockRate: 90_000,
        rtcpFeedback: [{ type: 'nack', parameter: 'pli' }],
      },
    ],
    encodings: [{ ssrc: SSRC }],
  });
  const rtcpPort = transport.rtcpTuple?.localPort;
  const ffmpeg = spawn(
    '/usr/bin/ffmpeg',
    ['-nostdin', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc=size=640x480:rate=15']
      .concat(['-an', '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '500k'])
      .concat(['-g', keyFrameEveryFrame ? '1' : '15'])
      .concat(['-ssrc', String(SSRC), '-payload_type', String(PAYLOAD_TYPE), '-pkt_size', '1200', '-f', 'rtp'])
      .concat([`rtp://127.0.0.1:${transport.tuple.localPort}?rtcpport=${rtcpPort}`]),
    { stdio: 'ignore' },
  );
  return { producerId: producer.id, producer, stop: () => void ffmpeg.kill('SIGKILL') };
}
