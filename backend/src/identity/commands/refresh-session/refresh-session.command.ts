import { Logger } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../platform/cqrs/decider.js';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { SignIns } from '../../sessions/sign-ins.js';

export class RefreshSession extends Command<{ accessToken: string; refreshToken?: string }> {
  constructor(
    readonly refreshToken: string | undefined,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

const expired = () => new DomainError('session-expired', 'Session expired', { kind: 'unauthenticated' });

/**
 * Rotates the refresh token (spec 3 "Session cookies"); a token already used means theft, so the whole session ends,
 * unless it was replaced seconds ago by the newest one (another tab of the same browser refreshed at the same moment):
 * that caller gets an access token and keeps the refresh token its cookie jar already holds.
 */
@CommandHandler(RefreshSession)
export class RefreshSessionHandler implements ICommandHandler<RefreshSession> {
  private readonly logger = new Logger(RefreshSessionHandler.name);

  constructor(private readonly signIns: SignIns) {}

  async execute({ refreshToken, meta }: RefreshSession) {
    if (!refreshToken) throw expired();
    const rotation = await this.signIns.store.rotate(refreshToken, meta.now);
    if (rotation.outcome === 'invalid') throw expired();
    if (rotation.outcome === 'reused') {
      const { sessionId, userId } = rotation;
      if (await this.signIns.store.end(sessionId, 'refresh token reused', meta.now)) {
        await this.signIns.record(sessionId, { type: 'SessionCompromised', data: { sessionId, userId } }, meta);
      }
      this.logger.warn(`refresh token reuse ended session ${sessionId}`);
      throw expired();
    }
    const { userId, sessionId, signedInWithCode } = rotation;
    const accessToken = await this.signIns.tokens.sign({ userId, sessionId, signedInWithCode }, meta.now);
    return rotation.outcome === 'raced' ? { accessToken } : { accessToken, refreshToken: rotation.refreshToken };
  }
}
