import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../database/schema.js';

/** How long a node may keep using a key after another node forgot its subject. */
const KEY_CACHE_MS = 5_000;
/** Subjects whose keys one query loads. */
const WARM_CHUNK = 1_000;

/** What a personal field reads as once its subject was forgotten: plainly marked, never ciphertext. */
export interface Erased {
  readonly $erased: true;
}
/** What openCached answers when the subject's key must be read first. */
export const NOT_CACHED = Symbol('not cached');

export const ERASED: Erased = Object.freeze({ $erased: true as const });
export const isErased = (value: unknown): value is Erased =>
  typeof value === 'object' && value !== null && (value as { $erased?: unknown }).$erased === true;

/** A forgotten person's field as a read model keeps it: nothing (null), never the erasure marker. */
export const plain = <T>(value: T): T | null => (isErased(value) ? null : value);

/** A personal value as stored in an event: ciphertext under its subject's key. */
export interface Sealed {
  $personal: { subject: string; sealed: string };
}
export const isSealed = (value: unknown): value is Sealed =>
  typeof value === 'object' && value !== null && typeof (value as Sealed).$personal?.sealed === 'string';

export class SubjectForgotten extends Error {
  override name = 'SubjectForgotten';
}

/**
 * Keeps one AES-256-GCM key per subject (a user), outside the event log. Forgetting a subject destroys its key,
 * so every event about them stays readable for replay and audit, with their personal data gone for good.
 * The subject keys are themselves encrypted with a key-encryption key from configuration: a copy of the
 * database alone does not reveal anyone.
 */
export class PersonalDataVault {
  private readonly cache = new Map<string, { key: Buffer | undefined; until: number }>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly keyEncryptionKey: Buffer,
  ) {
    if (keyEncryptionKey.length !== 32) throw new Error('the key-encryption key must be 32 bytes');
  }

  async seal(subject: string, field: string, value: unknown): Promise<Sealed> {
    const key = await this.keyFor(subject, true);
    if (!key)
      throw new SubjectForgotten(`subject ${subject} was forgotten; nothing personal may be written about them`);
    return {
      $personal: {
        subject,
        sealed: encrypt(key, Buffer.from(JSON.stringify(value)), aad(subject, field)).toString('base64'),
      },
    };
  }

  async open(field: string, value: Sealed): Promise<unknown> {
    const { subject, sealed } = value.$personal;
    const key = await this.keyFor(subject, false);
    if (!key) return ERASED;
    return JSON.parse(decrypt(key, Buffer.from(sealed, 'base64'), aad(subject, field)).toString('utf8'));
  }

  /**
   * Opens a sealed value at once when its subject's key is in the cache (as after `warm`), else NOT_CACHED: a batch
   * of thousands of events opens without a promise per field.
   */
  openCached(field: string, value: Sealed): unknown {
    const { subject, sealed } = value.$personal;
    const cached = this.cache.get(subject);
    if (!cached || cached.until <= Date.now()) return NOT_CACHED;
    if (!cached.key) return ERASED;
    return JSON.parse(decrypt(cached.key, Buffer.from(sealed, 'base64'), aad(subject, field)).toString('utf8'));
  }

  /**
   * Loads the keys of these subjects in one query (those not cached): a batch of events about a thousand people
   * opens with one round trip, not a thousand queued on the pool.
   */
  async warm(subjects: Iterable<string>): Promise<void> {
    const now = Date.now();
    const missing = [...new Set(subjects)].filter((s) => !((this.cache.get(s)?.until ?? 0) > now));
    for (let i = 0; i < missing.length; i += WARM_CHUNK) {
      const chunk = missing.slice(i, i + WARM_CHUNK);
      const rows = await this.db
        .selectFrom('subject_keys')
        .select(['subject_id', 'key'])
        .where('subject_id', 'in', chunk)
        .execute();
      const until = Date.now() + KEY_CACHE_MS;
      // A subject with no row has never had anything sealed: it stays uncached, as keyFor would leave it.
      for (const row of rows) this.cache.set(row.subject_id, { key: this.unwrap(row.subject_id, row.key), until });
    }
  }

  /** Destroys the subject's key (crypto-shredding). Other nodes' caches forget it within KEY_CACHE_MS. */
  async forgetSubject(subject: string): Promise<void> {
    await this.db
      .insertInto('subject_keys')
      .values({ subject_id: subject, key: null, forgotten_at: new Date() })
      .onConflict((oc) =>
        oc
          .column('subject_id')
          .doUpdateSet({ key: null, forgotten_at: sql`coalesce(subject_keys.forgotten_at, now())` }),
      )
      .execute();
    this.cache.set(subject, { key: undefined, until: Date.now() + KEY_CACHE_MS });
  }

  private async keyFor(subject: string, create: boolean): Promise<Buffer | undefined> {
    const cached = this.cache.get(subject);
    if (cached && cached.until > Date.now() && (cached.key || !create)) return cached.key;
    let row = await this.db
      .selectFrom('subject_keys')
      .select('key')
      .where('subject_id', '=', subject)
      .executeTakeFirst();
    if (!row && create) {
      // A concurrent forget or first seal wins the row; whatever is stored afterwards is the truth.
      const wrapped = encrypt(this.keyEncryptionKey, randomBytes(32), Buffer.from(`key:${subject}`));
      await this.db
        .insertInto('subject_keys')
        .values({ subject_id: subject, key: wrapped, forgotten_at: null })
        .onConflict((oc) => oc.doNothing())
        .execute();
      row = await this.db.selectFrom('subject_keys').select('key').where('subject_id', '=', subject).executeTakeFirst();
    }
    const key = this.unwrap(subject, row?.key ?? null);
    this.cache.set(subject, { key, until: Date.now() + KEY_CACHE_MS });
    return key;
  }

  private unwrap(subject: string, wrapped: Buffer | null): Buffer | undefined {
    if (!wrapped) return undefined;
    try {
      return decrypt(this.keyEncryptionKey, wrapped, Buffer.from(`key:${subject}`));
    } catch {
      // Not a forgotten person: the wrong key was configured (or the row was tampered with). Say which, not GCM's words.
      throw new Error("the personal-data key does not open this database's subject keys (is PERSONAL_DATA_KEY right?)");
    }
  }
}

// Bound to subject and field, so a sealed value cannot be moved to another person or field unnoticed.
const aad = (subject: string, field: string) => Buffer.from(`${subject}\u0000${field}`);

function encrypt(key: Buffer, plain: Buffer, associated: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(associated);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function decrypt(key: Buffer, sealed: Buffer, associated: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
  decipher.setAAD(associated);
  decipher.setAuthTag(sealed.subarray(12, 28));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
}
