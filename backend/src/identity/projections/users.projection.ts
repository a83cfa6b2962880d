import { sql } from 'kysely';
import type { RecordedEvent } from '../../platform/event-store/event-store.js';
import { plain } from '../../platform/personal-data/personal-data-vault.js';
import type { Projection } from '../../platform/projections/projection.js';
import type { AccountEvent } from '../domain/account.events.js';

const HANDLED = new Set<string>([
  'UserRegistered',
  'EmailVerified',
  'ProfileCompleted',
  'TwoFactorEnabled',
  'TwoFactorDisabled',
  'PrivacySettingsChanged',
  'AdminGranted',
  'RoleGranted',
  'RoleRevoked',
  'ProfileEdited',
  'AvatarChanged',
  'EmailChanged',
  'LocationUpdated',
  'AccountDeleted',
]);

/** identity's `users` read model: what GET /auth/user-info and the admin's user lists read. */
export const usersProjection: Projection = {
  name: 'identity.users',

  canHandle: (event) => HANDLED.has(event.type),

  async apply(trx, recorded: RecordedEvent) {
    const event = recorded as unknown as AccountEvent;
    const userId = event.data.userId;
    const users = trx.updateTable('users').where('user_id', '=', userId);
    switch (event.type) {
      case 'UserRegistered':
        await trx
          .insertInto('users')
          .values({
            user_id: userId,
            email_address: plain(event.data.emailAddress) ?? '',
            registered_at: recorded.metadata.occurredAt,
          })
          .execute();
        return;
      case 'EmailVerified':
        await users.set({ email_verified: true }).execute();
        return;
      case 'ProfileCompleted':
        await users
          .set({
            first_name: plain(event.data.firstName),
            last_name: plain(event.data.lastName),
            username: plain(event.data.username),
            gender: event.data.gender,
            birth_date: plain(event.data.birthDate),
            is_finished_steps: true,
          })
          .execute();
        return;
      case 'TwoFactorEnabled':
        await users.set({ two_factor_enabled: true }).execute();
        return;
      case 'TwoFactorDisabled':
        await users.set({ two_factor_enabled: false }).execute();
        return;
      case 'AdminGranted':
        await users.set({ role: 'admin', is_admin: true }).execute();
        return;
      case 'RoleGranted':
        await users.set({ role: event.data.role, is_admin: event.data.role === 'admin' }).execute();
        return;
      case 'RoleRevoked':
        await users.set({ role: 'user', is_admin: false }).execute();
        return;
      case 'PrivacySettingsChanged':
        await users.set({ hide_ip: event.data.hideIp }).execute();
        return;
      case 'ProfileEdited': {
        const { firstName, lastName, phoneNumber, bio } = event.data;
        const column = (value: string | undefined) => (value === undefined ? undefined : plain(value) || null);
        await users
          .set({
            first_name: column(firstName),
            last_name: column(lastName),
            phone_number: column(phoneNumber),
            bio: column(bio),
          })
          .execute();
        return;
      }
      case 'AvatarChanged':
        await users.set({ avatar_url: plain(event.data.avatarUrl) }).execute();
        return;
      case 'EmailChanged':
        await users.set({ email_address: plain(event.data.emailAddress) ?? '', email_verified: true }).execute();
        return;
      case 'LocationUpdated':
        await users.set({ country: plain(event.data.country), city: plain(event.data.city) }).execute();
        return;
      case 'AccountDeleted':
        // The key is destroyed next, which erases the rest on a rebuild; the live row is emptied now.
        await users
          .set({
            email_address: '',
            first_name: null,
            last_name: null,
            username: null,
            gender: null,
            birth_date: null,
            phone_number: null,
            bio: null,
            avatar_url: null,
            country: null,
            city: null,
            two_factor_enabled: false,
            // A deleted account holds no role: it would otherwise count among the staff.
            role: 'user',
            is_admin: false,
            deleted_at: new Date(recorded.metadata.occurredAt),
          })
          .execute();
        return;
      case 'PasswordChanged':
      case 'PasswordReset':
        return;
      default: {
        const unknown: never = event;
        throw new Error(`unhandled event ${(unknown as { type: string }).type}`);
      }
    }
  },

  async reset(trx) {
    await sql`truncate users`.execute(trx);
  },
};
