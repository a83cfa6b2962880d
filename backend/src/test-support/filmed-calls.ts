import { startVp8Source } from '../../../sfu/src/test-support/vp8-source.js';
import { EmbeddedSfu } from '../matching/media/embedded-sfu.js';
import type { TestApp } from './test-app.js';
import type { VideoClient } from './video-users.js';

/**
 * Films `userId` in their relayed call `matchId` on the test app's embedded SFU: their socket joins the call's media and
 * ffmpeg's VP8 test pattern stands in for their camera. Answers the function that stops it.
 */
export async function filmInRelayedCall(
  test: TestApp,
  matchId: string,
  socket: VideoClient,
  userId: string,
): Promise<() => void> {
  const sfu = test.app.get(EmbeddedSfu).running;
  if (!sfu) throw new Error('the test app runs no embedded SFU');
  for (let tries = 0; !sfu.rooms().has(matchId); tries++) {
    if (tries > 100) throw new Error(`the SFU never made the room of ${matchId}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const room = sfu.rooms().get(matchId)! as unknown as Parameters<typeof startVp8Source>[0];
  await socket.emitWithAck('media:join', {});
  return (await startVp8Source(room, userId)).stop;
}
