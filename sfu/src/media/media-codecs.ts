import type { types } from 'mediasoup';

/**
 * The router's codecs: opus, VP8 and H264 (constrained baseline, which every browser decodes).
 * mediasoup 3.12 takes these as `RtpCodecCapability`s; the client negotiates among them.
 */
export const MEDIA_CODECS: types.RtpCodecCapability[] = [
  { kind: 'audio', mimeType: 'audio/opus', clockRate: 48_000, channels: 2 },
  { kind: 'video', mimeType: 'video/VP8', clockRate: 90_000, parameters: { 'x-google-start-bitrate': 1_000 } },
  {
    kind: 'video',
    mimeType: 'video/H264',
    clockRate: 90_000,
    parameters: { 'packetization-mode': 1, 'profile-level-id': '42e01f', 'level-asymmetry-allowed': 1 },
  },
];
