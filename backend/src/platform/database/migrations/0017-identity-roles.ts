import { type Kysely, sql } from 'kysely';

/**
 * Staff roles (spec 6 Admin): 'user', 'moderator' or 'admin' on the `users` read model, kept by identity's users
 * projection from RoleGranted / RoleRevoked (and the older AdminGranted). Rows of before are admins where `is_admin`
 * says so; `is_admin` stays, true for the admin role only. The partial index finds the staff (the dashboard's team
 * list, the socket's roles) without reading every user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('role', 'text', (c) =>
      c
        .notNull()
        .defaultTo('user')
        .check(sql`role in ('user', 'moderator', 'admin')`),
    )
    .execute();
  await sql`update users set role = 'admin' where is_admin`.execute(db);
  await db.schema.createIndex('users_staff').on('users').column('role').where(sql.ref('role'), '<>', 'user').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_staff').execute();
  await db.schema.alterTable('users').dropColumn('role').execute();
}
