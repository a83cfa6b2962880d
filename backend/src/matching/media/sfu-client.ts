import {
  checkContract,
  checkSfuAnswer,
  SFU_SUBJECTS,
  type SfuAnswers,
  type SfuErrorCode,
  type SfuRequest,
  sfuReplySchema,
} from '@serendip/proto';
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

/** The backend's side of the SFU RPC (DESIGN.md "Shape"): typed requests over the bus, every failure an `SfuError`. */
export class SfuClient {
  constructor(
    private readonly bus: MessageBus,
    private readonly timeoutMs = 5_000,
    private readonly onFailure?: (what: string) => void,
  ) {}

  /**
   * A room for a call on whichever SFU node takes it; the answer names the node. The call's two users are its only
   * peers: the SFU refuses any other peer id in that room.
   */
  createRoom(roomId: string, peerIds: readonly [string, string]): Promise<SfuAnswers['createRoom']> {
    // Short: the two users hear of their call only once it has a room.
    return this.ask(SFU_SUBJECTS.createRoom, { type: 'createRoom', roomId, peerIds: [...peerIds] }, 2_000);
  }

  /**
   * The room for a call on that node: the room it still holds, if it does (full or not), or a new one. A new leader
   * asks it of the node that held a call's room under the last one.
   */
  createRoomOn(nodeId: string, roomId: string, peerIds: readonly [string, string]): Promise<SfuAnswers['createRoom']> {
    return this.ask(SFU_SUBJECTS.node(nodeId), { type: 'createRoom', roomId, peerIds: [...peerIds] }, 2_000);
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

  private async ask<R extends SfuRequest>(
    subject: string,
    request: R,
    timeoutMs = this.timeoutMs,
  ): Promise<SfuAnswers[R['type']]> {
    let raw: unknown;
    try {
      raw = await this.bus.request(subject, request, { timeoutMs });
    } catch (error) {
      if (error instanceof NoResponderError || error instanceof RequestTimeoutError) {
        throw new SfuError('unavailable', RELAY_DOWN);
      }
      throw error;
    }
    const reply = checkContract(sfuReplySchema, raw);
    if (!reply.ok) throw this.nonsense(subject, `reply: ${reply.reason}`);
    const answer = reply.value;
    // The SFU's own words on its failures (paths, internals) go to the log, not to users.
    if (!answer.ok && (answer.error.code === 'failed' || answer.error.code === 'unavailable')) {
      this.onFailure?.(`${subject}: ${answer.error.code}: ${answer.error.reason}`);
      throw new SfuError(answer.error.code, RELAY_DOWN);
    }
    if (!answer.ok) throw new SfuError(answer.error.code, answer.error.reason);
    const result = checkSfuAnswer<R['type']>(request.type, answer.result);
    if (!result.ok) throw this.nonsense(subject, `${request.type} answer: ${result.reason}`);
    return result.value;
  }

  /** An answer outside the contract (an SFU of another version, a bug): the log says which field, users hear less. */
  private nonsense(subject: string, problem: string): SfuError {
    this.onFailure?.(`${subject}: the SFU answered outside the contract: ${problem}`);
    return new SfuError('failed', RELAY_DOWN);
  }
}
