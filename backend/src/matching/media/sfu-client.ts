import { SFU_SUBJECTS, type SfuAnswers, type SfuErrorCode, type SfuReply, type SfuRequest } from '@serendip/proto';
import { type MessageBus, NoResponderError, RequestTimeoutError } from '../../platform/messaging/message-bus.js';

/** What the SFU answered instead of a result, or why it could not be asked. */
export class SfuError extends Error {
  constructor(
    readonly code: SfuErrorCode,
    reason: string,
  ) {
    super(reason);
    this.name = 'SfuError';
  }
}

const RELAY_DOWN = 'Media relay is unavailable right now.';

/** The backend's side of the SFU RPC (issue 8): typed requests over the bus, every failure an `SfuError`. */
export class SfuClient {
  constructor(
    private readonly bus: MessageBus,
    private readonly timeoutMs = 5_000,
    private readonly onFailure?: (what: string) => void,
  ) {}

  /** A room for a call on whichever SFU node takes it; the answer names the node. */
  createRoom(roomId: string): Promise<SfuAnswers['createRoom']> {
    // Short: the matchmaker waits for it, and every other pairing waits behind it.
    return this.ask(SFU_SUBJECTS.createRoom, { type: 'createRoom', roomId }, 2_000);
  }

  /** Any other request, to the node that holds the room. */
  send<R extends Exclude<SfuRequest, { type: 'createRoom' }>>(
    nodeId: string,
    request: R,
  ): Promise<SfuAnswers[R['type']]> {
    // A snapshot waits for a keyframe and ffmpeg: give it longer than the quick signalling requests.
    const timeoutMs = request.type === 'snapshot' ? 15_000 : this.timeoutMs;
    return this.ask(SFU_SUBJECTS.node(nodeId), request, timeoutMs);
  }

  private async ask<T>(subject: string, request: SfuRequest, timeoutMs = this.timeoutMs): Promise<T> {
    let reply: SfuReply<T>;
    try {
      reply = (await this.bus.request(subject, request, { timeoutMs })) as SfuReply<T>;
    } catch (error) {
      if (error instanceof NoResponderError || error instanceof RequestTimeoutError) {
        throw new SfuError('unavailable', RELAY_DOWN);
      }
      throw error;
    }
    if (!reply || typeof reply !== 'object' || !('ok' in reply))
      throw new SfuError('failed', 'The SFU answered nonsense.');
    // The SFU's own words on its failures (paths, internals) go to the log, not to users.
    if (!reply.ok && (reply.error.code === 'failed' || reply.error.code === 'unavailable')) {
      this.onFailure?.(`${subject}: ${reply.error.code}: ${reply.error.reason}`);
      throw new SfuError(reply.error.code, RELAY_DOWN);
    }
    if (!reply.ok) throw new SfuError(reply.error.code, reply.error.reason);
    return reply.result;
  }
}
