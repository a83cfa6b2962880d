import type { Db } from '../../platform/database/database.js';
import { hashSecret } from '../sessions/secrets.js';
import { invalidField } from '../../platform/cqrs/decider.js';

export type EmailTokenPurpose = 'verify-email' | 'reset-password' | 'change-email';

export interface RedeemedToken {
  userId: string;
  purpose: EmailTokenPurpose;
  /** For 'change-email': the address the link was sent to, which becomes the account's. */
  newEmail: string | null;
}

/** The single-use links identity mails (verification, reset, e-mail change): stored hashed, each with a lifetime. */
export class EmailTokens {
  constructor(private readonly db: Db) {}

  async issue(
    token: string,
    userId: string,
    purpose: EmailTokenPurpose,
    ttlMs: number,
    now: Date,
    newEmail: string | null = null,
  ): Promise<void> {
    await this.db
      .insertInto('auth_email_tokens')
      .values({
        token_hash: hashSecret(token),
        user_id: userId,
        purpose,
        expires_at: new Date(now.getTime() + ttlMs),
        used_at: null,
        new_email: newEmail,
      })
      .execute();
  }

  /** Uses up a token of one of `purposes`, once, before it expires; answers whose it was and what for. */
  async redeem(token: string, purposes: EmailTokenPurpose[], now: Date): Promise<RedeemedToken> {
    const used = await this.db
      .updateTable('auth_email_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', hashSecret(token))
      .where('purpose', 'in', purposes)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['user_id', 'purpose', 'new_email'])
      .executeTakeFirst();
    if (!used) throw invalidField('token', 'this link has expired or was already used', 'link-expired');
    return { userId: used.user_id, purpose: used.purpose, newEmail: used.new_email };
  }
}
