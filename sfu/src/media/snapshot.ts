import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Snapshot } from '@serendip/proto';
import type { types } from 'mediasoup';
import { jpegSize } from './jpeg-size.js';
import { SfuError } from './sfu-error.js';

export interface SnapshotOptions {
  ffmpegPath?: string;
  /** Give up after about 8 s. */
  timeoutMs?: number;
  now?: () => Date;
}

const LOOPBACK = '127.0.0.1';

/**
 * One frame of a producer's video as a JPEG, decoded by the server (report evidence the reporter
 * cannot fake). The producer's RTP goes over a PlainTransport to ffmpeg on loopback, which writes one frame.
 * Recipe: ../shared/notes/mediasoup-on-debian.md.
 */
export async function takeSnapshot(
  router: types.Router,
  producer: types.Producer,
  { ffmpegPath = '/usr/bin/ffmpeg', timeoutMs = 8_000, now = () => new Date() }: SnapshotOptions = {},
): Promise<Snapshot> {
  const dir = await mkdtemp(join(tmpdir(), 'sfu-snapshot-'));
  let transport: types.PlainTransport | undefined;
  let ffmpeg: ReturnType<typeof spawn> | undefined;
  let keyFrames: NodeJS.Timeout | undefined;
  try {
    transport = await router.createPlainTransport({ listenIp: LOOPBACK, comedia: false, rtcpMux: false });
    // ffmpeg decodes only what its SDP names, so offer just the plain video codecs (no RTX, no header
    // extensions) and write the SDP for whichever one the consumer got.
    const codecs = (router.rtpCapabilities.codecs ?? []).filter((codec) =>
      ['video/vp8', 'video/h264'].includes(codec.mimeType.toLowerCase()),
    );
    const consumer = await transport.consume({
      producerId: producer.id,
      rtpCapabilities: { codecs, headerExtensions: [] },
      paused: true,
    });
    const codec = consumer.rtpParameters.codecs[0];
    if (!codec) throw new SfuError('failed', 'The snapshot found no codec to decode.');
    const port = await freeUdpPortPair();
    const sdpPath = join(dir, 'in.sdp');
    const jpegPath = join(dir, 'out.jpg');
    await writeFile(sdpPath, sdp(port, codec));
    await transport.connect({ ip: LOOPBACK, port, rtcpPort: port + 1 });

    ffmpeg = spawn(
      ffmpegPath,
      ['-nostdin', '-loglevel', 'error', '-protocol_whitelist', 'file,udp,rtp', '-i', sdpPath].concat([
        '-frames:v',
        '1',
        '-q:v',
        '2',
        '-y',
        jpegPath,
      ]),
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const exited = exitOf(ffmpeg, timeoutMs);
    // Awaited below; this only keeps an early failure from counting as unhandled meanwhile.
    exited.catch(() => undefined);
    await consumer.resume();
    // NOTE: ffmpeg can only start at a keyframe, and the first one may be lost before it listens: ask again
    // every second until it has its frame.
    const askForKeyFrame = () => void consumer.requestKeyFrame().catch(() => undefined);
    askForKeyFrame();
    keyFrames = setInterval(askForKeyFrame, 1_000);
    await exited;

    const jpeg = await readFile(jpegPath).catch(() => {
      throw new SfuError('failed', 'The snapshot produced no image.');
    });
    const size = jpegSize(jpeg);
    if (!size) throw new SfuError('failed', 'The snapshot produced an unreadable image.');
    return {
      jpeg: jpeg.toString('base64'),
      sha256: createHash('sha256').update(jpeg).digest('hex'),
      width: size.width,
      height: size.height,
      takenAt: now().toISOString(),
    };
  } finally {
    clearInterval(keyFrames);
    if (ffmpeg && ffmpeg.exitCode === null && ffmpeg.signalCode === null) ffmpeg.kill('SIGKILL');
    // Closing the transport closes the consumer on it.
    transport?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function sdp(port: number, codec: types.RtpCodecParameters): string {
  const pt = codec.payloadType;
  const name = codec.mimeType.split('/')[1];
  const fmtp = Object.entries(codec.parameters ?? {}).map(([key, value]) => `${key}=${String(value)}`);
  return [
    'v=0',
    `o=- 0 0 IN IP4 ${LOOPBACK}`,
    's=serendip snapshot',
    `c=IN IP4 ${LOOPBACK}`,
    't=0 0',
    `m=video ${port} RTP/AVP ${pt}`,
    `a=rtcp:${port + 1}`,
    `a=rtpmap:${pt} ${name}/${codec.clockRate}`,
    ...(fmtp.length ? [`a=fmtp:${pt} ${fmtp.join(';')}`] : []),
    'a=recvonly',
    '',
  ].join('\n');
}

/** Resolves when ffmpeg exits having written its frame; rejects on failure or after `timeoutMs`. */
function exitOf(ffmpeg: ReturnType<typeof spawn>, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    ffmpeg.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2_000)));
    const timer = setTimeout(
      () => reject(new SfuError('failed', 'The snapshot timed out: no video frame arrived.')),
      timeoutMs,
    );
    ffmpeg.once('error', (error) => {
      clearTimeout(timer);
      reject(new SfuError('failed', `The snapshot could not run ffmpeg: ${error.message}`));
    });
    ffmpeg.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new SfuError('failed', `ffmpeg could not decode the video: ${stderr.trim() || `exit ${code}`}`));
    });
  });
}

/** An even UDP port P on loopback with P+1 free too (RTP and RTCP, for ffmpeg to bind right after). */
async function freeUdpPortPair(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const rtp = await bind(0);
    const port = rtp.address().port;
    const rtcp = port % 2 === 0 ? await bind(port + 1).catch(() => undefined) : undefined;
    rtp.close();
    rtcp?.close();
    if (rtcp) return port;
  }
  throw new SfuError('failed', 'The snapshot found no free local UDP ports.');
}

function bind(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(port, LOOPBACK, () => resolve(socket));
  });
}
