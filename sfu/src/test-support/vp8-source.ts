import { spawn } from 'node:child_process';
import type { Room } from '../media/room.js';

const SSRC = 22_222_222;
const PAYLOAD_TYPE = 101;

/**
 * Real video for a peer without a browser: ffmpeg encodes a 640x480 test pattern to VP8 and sends it as RTP to a
 * PlainTransport producer (comedia: the transport learns ffmpeg's address from the first packet).
 */
export async function startVp8Source(room: Room, peerId: string): Promise<{ producerId: string; stop(): void }> {
  const transport = await room.router.createPlainTransport({ listenIp: '127.0.0.1', comedia: true, rtcpMux: false });
  const producer = await transport.produce({
    kind: 'video',
    rtpParameters: {
      codecs: [{ mimeType: 'video/VP8', payloadType: PAYLOAD_TYPE, clockRate: 90_000 }],
      encodings: [{ ssrc: SSRC }],
    },
  });
  room.attachProducer(peerId, transport, producer);
  const rtcpPort = transport.rtcpTuple?.localPort;
  const ffmpeg = spawn(
    '/usr/bin/ffmpeg',
    ['-nostdin', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc=size=640x480:rate=15']
      .concat(['-an', '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '500k', '-g', '15'])
      .concat(['-ssrc', String(SSRC), '-payload_type', String(PAYLOAD_TYPE), '-pkt_size', '1200', '-f', 'rtp'])
      .concat([`rtp://127.0.0.1:${transport.tuple.localPort}?rtcpport=${rtcpPort}`]),
    { stdio: 'ignore' },
  );
  return { producerId: producer.id, stop: () => void ffmpeg.kill('SIGKILL') };
}
