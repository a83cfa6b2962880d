import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { FileStore } from '@tus/file-store';
import { ERRORS, EVENTS, MemoryLocker, Server, type ServerOptions, type Upload } from '@tus/server';
import { CommandBus } from '@nestjs/cqrs';
import { ACCOUNT_PATHS } from '@serendip/proto';
import type { NextFunction, Request, Response } from 'express';
import type { Config } from '../../config/config.js';
import { CONFIG } from '../../config/config.token.js';
import { DomainError } from '../../platform/cqrs/decider.js';
import { isStorageFull, STORAGE_FULL_MESSAGE, storageFull } from '../../platform/files/whole-file.js';
import { answerDomainError } from '../../platform/http/domain-error.filter.js';
import { type Limit, RATE_LIMITS, type RateLimits, TooManyRequests } from '../../platform/http/rate-limits.js';
import { ACCOUNT_RESTRICTED, AccountStanding } from '../public/account-standing.js';
import { SessionResolver } from '../public/session-resolver.js';
import { ChangeAvatar, type ChangeAvatarResult } from '../commands/change-avatar/change-avatar.command.js';
import { commandMetaOf } from '../public/guards.js';
import { PendingUploads } from './pending-uploads.js';

export const MAX_AVATAR_UPLOAD_BYTES = 5 * 1024 * 1024;
/** A partial upload nobody resumes for this long is deleted. */
export const ABANDONED_UPLOAD_MS = 60 * 60_000;
const CLEANUP_EVERY_MS = 15 * 60_000;
export const AVATAR_UPLOADS_PER_USER: Limit = { name: 'avatar-upload-user', points: 20, durationSeconds: 60 * 60 };
/** Unfinished uploads one person may keep: a new one beyond that drops their oldest. */
export const UNFINISHED_UPLOADS_PER_USER = 2;
/** When to come back after the pending-bytes cap said no: most uploads finish within seconds. */
const UPLOADS_BUSY_RETRY_SECONDS = 60;

const UPLOAD_ID = /^[0-9a-f]{32}$/;
const PATH = ACCOUNT_PATHS.avatarUploads;
type TusRequest = Parameters<NonNullable<ServerOptions['onUploadFinish']>>[0];

/** spec 8: the client's own avatar toasts, so a message shown as is reads the same. */
const UPLOAD_FAILED = 'Failed to upload image';
const SERVER_FAILED = 'Failed to update profile picture on the server';

const REFUSALS: Record<Extract<ChangeAvatarResult, { ok: false }>['problem'], { status: number; reason: string }> = {
  'unsupported-type': { status: 415, reason: 'Only JPEG, PNG or WebP pictures can be used' },
  'too-many-pixels': { status: 422, reason: 'The picture has too many pixels' },
  unreadable: { status: 422, reason: 'The picture could not be read' },
};

/**
 * Resumable avatar uploads over tus at /api/uploads/avatars. Mounted on Express ahead of Nest, whose
 * body parsers must not touch the byte stream. Every request but OPTIONS needs a live session; an upload
 * belongs to whoever created it and is invisible (404) to everyone else. Raw bytes wait in DATA_DIR/avatar-uploads
 * until the last PATCH, then become an avatar through the ChangeAvatar command and are deleted.
 */
@Injectable()
export class AvatarUploads implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(AvatarUploads.name);
  private readonly store: FileStore;
  private readonly tus: Server;
  private readonly locker = new MemoryLocker();
  private readonly pending: PendingUploads;
  /** The id picked for a creating request, reserved before tus sees it. */
  private readonly reservedIds = new WeakMap<object, string>();
  /** The signed-in user of each request in flight, found before tus sees it. */
  private readonly uploaders = new WeakMap<object, string>();
  private cleanup?: NodeJS.Timeout;

  constructor(
    @Inject(CONFIG) config: Config,
    private readonly sessions: SessionResolver,
    private readonly standing: AccountStanding,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    private readonly commands: CommandBus,
  ) {
    this.pending = new PendingUploads({
      perPerson: UNFINISHED_UPLOADS_PER_USER,
      maxBytes: config.avatarPendingBytesMax,
      expiresAfterMs: ABANDONED_UPLOAD_MS,
    });
    this.store = new FileStore({
      directory: path.join(config.dataDir, 'avatar-uploads'),
      expirationPeriodInMilliseconds: ABANDONED_UPLOAD_MS,
    });
    const publicOrigin = new URL(config.publicUrl).origin;
    // NOTE: the in-memory locker (and the pending-upload caps) assume one node per upload; several nodes need sticky
    // routing or a shared locker (and a shared upload store) first.
    this.tus = new Server({
      path: PATH,
      datastore: this.store,
      // Checked against Upload-Length at creation, before anything is stored (413).
      maxSize: MAX_AVATAR_UPLOAD_BYTES,
      relativeLocation: true,
      // Our own pages only; tus would otherwise answer any origin with `*`.
      allowedOrigins: (origin) => origin === publicOrigin,
      locker: this.locker,
      namingFunction: (req) => this.reservedIds.get(nodeRequestOf(req) ?? {}) ?? randomBytes(16).toString('hex'),
      getFileIdFromRequest: (_req, lastPath) => (lastPath && UPLOAD_ID.test(lastPath) ? lastPath : undefined),
      onUploadCreate: (req, upload) => this.onUploadCreate(req, upload),
      onIncomingRequest: (req, id) => this.checkOwner(req, id),
      onUploadFinish: (req, upload) => this.onUploadFinish(req, upload),
      onResponseError: (req, error) => this.onResponseError(req, error),
    });
    // tus reads a creation's upload again after onUploadFinish, so a one-request upload's raw file goes here.
    this.tus.on(EVENTS.POST_FINISH, (req, _res, upload) => {
      if (req.method === 'POST') void this.discard(upload.id);
    });
    this.tus.on(EVENTS.POST_TERMINATE, (_req, _res, id) => this.pending.release(id));
  }

  /** Express middleware: answers the tus routes, passes everything else on. */
  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    if (req.path !== PATH && !req.path.startsWith(`${PATH}/`)) return next();
    // Raw uploads are never downloaded: Nest answers GET with its 404.
    if (req.method === 'GET') return next();
    this.handle(req, res).catch(next);
  };

  async onApplicationBootstrap(): Promise<void> {
    await this.restorePending().catch((error: unknown) =>
      this.logger.warn(`unfinished uploads not counted: ${(error as Error).message}`),
    );
    this.cleanup = setInterval(() => {
      this.tus
        .cleanUpExpiredUploads()
        .catch((error: unknown) => this.logger.warn(`expired uploads not cleaned: ${(error as Error).message}`));
    }, CLEANUP_EVERY_MS);
    this.cleanup.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.cleanup);
  }

  private async handle(req: Request, res: Response): Promise<void> {
    if (req.method !== 'OPTIONS') {
      const userId = await this.signedInUser(req);
      if (!userId) {
        res.status(401).json({ statusCode: 401, message: 'Unauthorized, Please Log In.', error: 'Unauthorized' });
        return;
      }
      if (await this.standing.isRestricted(userId, new Date())) {
        res.status(403).json({ statusCode: 403, message: ACCOUNT_RESTRICTED, error: 'Forbidden' });
        return;
      }
      if (req.method === 'POST') {
        try {
          await this.limits.take(AVATAR_UPLOADS_PER_USER, userId);
        } catch (error) {
          if (!(error instanceof TooManyRequests)) throw error;
          answerDomainError(res, error);
          return;
        }
      }
      this.uploaders.set(req, userId);
      if (req.method === 'POST') {
        const id = randomBytes(16).toString('hex');
        if (!(await this.admit(req, res, id, userId))) return;
        try {
          await this.tus.handle(req, res);
        } finally {
          // Refused, failed before it was stored, or finished in this one request: it holds no space.
          if (!(await this.unfinished(id))) this.pending.release(id);
        }
        return;
      }
    }
    await this.tus.handle(req, res);
  }

  /**
   * Holds the disk space a new upload declares: at most AVATAR_PENDING_BYTES_MAX for all unfinished uploads together
   * (past it, 503 and Retry-After), and at most UNFINISHED_UPLOADS_PER_USER per person, whose oldest goes to make room.
   * A length tus itself refuses (missing, malformed, over 5 MiB) is left for tus to answer.
   */
  private async admit(req: Request, res: Response, id: string, userId: string): Promise<boolean> {
    const declared = req.headers['upload-length'];
    if (typeof declared !== 'string' || !/^\d{1,10}$/.test(declared) || Number(declared) > MAX_AVATAR_UPLOAD_BYTES)
      return true;
    const admission = this.pending.admit(id, userId, Number(declared), Date.now());
    if (!admission.ok) {
      this.logger.warn(
        `avatar upload refused: unfinished uploads already declare ${this.pending.declaredBytes()} bytes`,
      );
      answerDomainError(
        res,
        new DomainError('uploads-busy', 'Too many picture uploads are in progress; please try again in a minute', {
          kind: 'unavailable',
          retryAfterSeconds: UPLOADS_BUSY_RETRY_SECONDS,
        }),
      );
      return false;
    }
    this.reservedIds.set(req, id);
    for (const dropped of admission.dropped) await this.drop(dropped);
    return true;
  }

  /** Removes an unfinished upload under its lock: a PATCH writing to it is stopped first. */
  private async drop(id: string): Promise<void> {
    const lock = this.locker.newLock(id);
    try {
      await lock.lock(new AbortController().signal, async () => undefined);
    } catch (error) {
      this.logger.warn(`unfinished upload ${id} not dropped: ${(error as Error).message}`);
      return;
    }
    try {
      await this.discard(id);
    } finally {
      await lock.unlock();
    }
  }

  private async unfinished(id: string): Promise<boolean> {
    try {
      const upload = await this.store.getUpload(id);
      return upload.size === undefined || upload.offset < upload.size;
    } catch {
      return false;
    }
  }

  /** Unfinished uploads left on disk by an earlier run still hold their space until they expire. */
  private async restorePending(): Promise<void> {
    const ids = (await this.store.configstore.list?.()) ?? [];
    const found: { id: string; owner: string; bytes: number; startedAt: number }[] = [];
    for (const id of ids) {
      const upload = await this.store.configstore.get(id);
      const owner = upload?.metadata?.owner;
      if (!upload || !owner || upload.size === undefined || upload.offset >= upload.size) continue;
      found.push({ id, owner, bytes: upload.size, startedAt: Date.parse(upload.creation_date ?? '') || Date.now() });
    }
    found.sort((a, b) => a.startedAt - b.startedAt);
    for (const { id, owner, bytes, startedAt } of found) this.pending.restore(id, owner, bytes, startedAt);
  }

  /** As AuthGuard: the same SessionResolver decides who is calling (and AccountStanding whether they may). */
  private async signedInUser(req: Request): Promise<string | undefined> {
    return (await this.sessions.resolve(req))?.userId;
  }

  private uploaderOf(req: TusRequest): string {
    const node = nodeRequestOf(req);
    const userId = node && this.uploaders.get(node);
    // The middleware signs every tus request in before handing it over; this is a wiring error.
    if (!userId) throw new Error('avatar upload request without a signed-in user');
    return userId;
  }

  private async onUploadCreate(req: TusRequest, upload: Upload): Promise<{ metadata: Upload['metadata'] }> {
    // The whole file must be declared up front, so the size cap holds before any byte is stored.
    if (upload.sizeIsDeferred) throw { status_code: 400, body: 'Upload-Length is required\n' };
    // Client metadata (file name, declared type) is ignored anyway: only the owner is kept.
    return { metadata: { owner: this.uploaderOf(req) } };
  }

  /** Someone else's upload answers exactly as a missing one (no probing for ids). */
  private async checkOwner(req: TusRequest, id: string): Promise<void> {
    if (req.method === 'POST') return;
    const upload = await this.store.getUpload(id);
    if (upload.metadata?.owner !== this.uploaderOf(req)) throw ERRORS.FILE_NOT_FOUND;
  }

  /** The finishing request is answered with the user (200, JSON) or why the picture was refused. */
  private async onUploadFinish(req: TusRequest, upload: Upload) {
    const userId = this.uploaderOf(req);
    this.pending.release(upload.id);
    try {
      const bytes = await buffer(this.store.read(upload.id));
      if (req.method !== 'POST') await this.discard(upload.id);
      const meta = { ...commandMetaOf(req.runtime!.node!.req as Request), actor: userId };
      const result: ChangeAvatarResult = await this.commands.execute(new ChangeAvatar(userId, bytes, meta));
      if (result.ok) return json(200, result.user);
      const refusal = REFUSALS[result.problem];
      return json(refusal.status, { message: UPLOAD_FAILED, reason: refusal.reason });
    } catch (error) {
      if (error instanceof DomainError && error.code === 'storage-full') return storageFullAnswer();
      this.logger.error(`avatar upload failed: ${(error as Error).message}`);
      return json(500, { message: SERVER_FAILED });
    }
  }

  /**
   * What tus answers when storing bytes fails: its own answer would be a 500 that carries the error's text (paths,
   * errno). A full disk is a 503 to try again later, and the unfinished upload is dropped to give the room back (the
   * client starts over); anything else is logged here and answered without detail.
   */
  private async onResponseError(req: TusRequest, error: Error | { status_code: number; body: string }) {
    if ('status_code' in error) return undefined;
    if (isStorageFull(error)) {
      const id = new URL(req.url).pathname.split('/').pop() ?? '';
      this.logger.warn('avatar upload stopped: DATA_DIR is full');
      if (UPLOAD_ID.test(id)) void this.drop(id).finally(() => this.pending.release(id));
      // tus takes a status and a body here, no headers.
      const { status_code, body } = storageFullAnswer();
      return { status_code, body };
    }
    this.logger.error(`avatar upload failed: ${error.message}`);
    return { status_code: 500, body: JSON.stringify({ message: UPLOAD_FAILED }) };
  }

  private async discard(id: string): Promise<void> {
    await this.store
      .remove(id)
      .catch((error: unknown) => this.logger.warn(`raw upload ${id} not removed: ${(error as Error).message}`));
  }
}

/** The Node request under tus's web Request (srvx). */
function nodeRequestOf(req: TusRequest): object | undefined {
  return req.runtime?.node?.req;
}

function json(status: number, body: unknown, headers: Record<string, string> = {}) {
  return {
    status_code: status,
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers },
  };
}

function storageFullAnswer() {
  const full = storageFull();
  return json(
    503,
    { message: SERVER_FAILED, reason: STORAGE_FULL_MESSAGE },
    {
      'Retry-After': String(full.retryAfterSeconds),
    },
  );
}
