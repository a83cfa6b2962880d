import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../platform/cqrs/decider.js';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { LIMITS, RATE_LIMITS, type RateLimits } from '../../../platform/http/rate-limits.js';
import { hashSecret } from '../../sessions/secrets.js';
import { type Device, type SignedIn, SignIns } from '../../sessions/sign-ins.js';

const LOGIN_CODE_TRIES = 5;

export class VerifyLoginCode extends Command<SignedIn> {
  constructor(
    readonly challengeId: string,
    readonly code: string,
    readonly device: Device,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/** The e-mailed sign-in code (spec 1 "Accounts": two-factor codes by e-mail): once, within 10 minutes, at most 5 tries. */
@CommandHandler(VerifyLoginCode)
export class VerifyLoginCodeHandler implements ICommandHandler<VerifyLoginCode> {
  constructor(
    @Inject(DATABASE) private readonly db: Db,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    private readonly signIns: SignIns,
  ) {}

  async execute({ challengeId, code, device, meta }: VerifyLoginCode): Promise<SignedIn> {
    // Wrong codes count against the account across all its challenges, so new challenges bring no new tries.
    const owner = await this.db
      .selectFrom('auth_login_challenges')
      .select('user_id')
      .where('challenge_id', '=', challengeId)
      .executeTakeFirst();
    if (owner) await this.limits.check(LIMITS.wrongCodesPerAccount, owner.user_id);
    let wrong = false;
    const challenge = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('auth_login_challenges')
        .selectAll()
        .where('challenge_id', '=', challengeId)
        .forUpdate()
        .executeTakeFirst();
      if (!row || row.used_at || row.expires_at <= meta.now || row.attempts >= LOGIN_CODE_TRIES) return undefined;
      if (row.code_hash !== hashSecret(code)) {
        wrong = true;
        await trx
          .updateTable('auth_login_challenges')
          .set({ attempts: row.attempts + 1 })
          .where('challenge_id', '=', challengeId)
          .execute();
        return undefined;
      }
      await trx
        .updateTable('auth_login_challenges')
        .set({ used_at: meta.now })
        .where('challenge_id', '=', challengeId)
        .execute();
      return row;
    });
    if (wrong && owner) await this.limits.consume(LIMITS.wrongCodesPerAccount, owner.user_id);
    if (!challenge) throw new DomainError('wrong-code', 'Wrong or expired code', { kind: 'unauthenticated' });
    return this.signIns.start(challenge.user_id, device, meta, 'code');
  }
}
