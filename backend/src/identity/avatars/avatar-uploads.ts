import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { FileStore } from '@tus/file-store';
import { ERRORS, EVENTS, Server, type ServerOptions, type Upload } from '@tus/server';
import { CommandBus } from '@nestjs/cqrs';
import { ACCOUNT_PATHS } from '@serendip/proto';
import type { NextFunction, Request, Response } from 'express';
import type { Config } from '../../config/config.js';
import { CONFIG } from '../../config/config.token.js';
import { answerDomainError } from '../../platform/http/domain-error.filter.js';
import { type Limit, RATE_LIMITS, type RateLimits, TooManyRequests } from '../../platform/http/rate-limits.js';
import { SessionResolver } from '../public/session-resolver.js';
import { ChangeAvatar, type ChangeAvatarResult } from '../commands/change-avatar/change-avatar.command.js';
import { commandMetaOf } from '../public/guards.js';

export const MAX_AVATAR_UPLOAD_BYTES = 5 * 1024 * 1024;
/** A partial upload nobody resumes for this long is deleted. */
export const ABANDONED_UPLOAD_MS = 60 * 60_000;
const CLEANUP_EVERY_MS = 15 * 60_000;
export const AVATAR_UPLOADS_PER_USER: Limit = { name: 'avatar-upload-user', points: 20, durationSeconds: 60 * 60 };

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
  /** The signed-in user of each request in flight, found before tus sees it. */
  private readonly uploaders = new WeakMap<object, string>();
  private cleanup?: NodeJS.Timeout;

  constructor(
    @Inject(CONFIG) config: Config,
    private readonly sessions: SessionResolver,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    private readonly commands: CommandBus,
  ) {
    this.store = new FileStore({
      directory: path.join(config.dataDir, 'avatar-uploads'),
      expirationPeriodInMilliseconds: ABANDONED_UPLOAD_MS,
    });
    const publicOrigin = new URL(config.publicUrl).origin;
    // NOTE: the default in-memory locker assumes one node per upload; several nodes need sticky routing or a
    // shared locker (and a shared upload store) first.
    this.tus = new Server({
      path: PATH,
      datastore: this.store,
      // Checked against Upload-Length at creation, before anything is stored (413).
      maxSize: MAX_AVATAR_UPLOAD_BYTES,
      relativeLocation: true,
      // Our own pages only; tus would otherwise answer any origin with `*`.
      allowedOrigins: (origin) => origin === publicOrigin,
      namingFunction: () => randomBytes(16).toString('hex'),
      getFileIdFromRequest: (_req, lastPath) => (lastPath && UPLOAD_ID.test(lastPath) ? lastPath : undefined),
      onUploadCreate: (req, upload) => this.onUploadCreate(req, upload),
      onIncomingRequest: (req, id) => this.checkOwner(req, id),
      onUploadFinish: (req, upload) => this.onUploadFinish(req, upload),
    });
    // tus reads a creation's upload again after onUploadFinish, so a one-request upload's raw file goes here.
    this.tus.on(EVENTS.POST_FINISH, (req, _res, upload) => {
      if (req.method === 'POST') void this.discard(upload.id);
    });
  }

  /** Express middleware: answers the tus routes, passes everything else on. */
  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    if (req.path !== PATH && !req.path.startsWith(`${PATH}/`)) return next();
    // Raw uploads are never downloaded: Nest answers GET with its 404.
    if (req.method === 'GET') return next();
    this.handle(req, res).catch(next);
  };

  onApplicationBootstrap(): void {
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
    }
    await this.tus.handle(req, res);
  }

  /** As AuthGuard: the same SessionResolver decides who is calling. */
  private async signedInUser(req: Request): Promise<string | undefined> {
    return (await this.sessions.resolve(req))?.userId;
  }

  private uploaderOf(req: TusRequest): string {
    const node = req.runtime?.node?.req;
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
    try {
      const bytes = await buffer(this.store.read(upload.id));
      if (req.method !== 'POST') await this.discard(upload.id);
      const meta = { ...commandMetaOf(req.runtime!.node!.req as Request), actor: userId };
      const result: ChangeAvatarResult = await this.commands.execute(new ChangeAvatar(userId, bytes, meta));
      if (result.ok) return json(200, result.user);
      const refusal = REFUSALS[result.problem];
      return json(refusal.status, { message: UPLOAD_FAILED, reason: refusal.reason });
    } catch (error) {
      this.logger.error(`avatar upload failed: ${(error as Error).message}`);
      return json(500, { message: SERVER_FAILED });
    }
  }

  private async discard(id: string): Promise<void> {
    await this.store
      .remove(id)
      .catch((error: unknown) => this.logger.warn(`raw upload ${id} not removed: ${(error as Error).message}`));
  }
}

function json(status: number, body: unknown) {
  return {
    status_code: status,
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  };
}
