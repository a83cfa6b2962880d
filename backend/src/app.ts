import 'reflect-metadata';
import { ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import cookieParser from 'cookie-parser';
import type { NestExpressApplication } from '@nestjs/platform-express';
import {
  API_PREFIX,
  FEED_IMAGE_MAX_BYTES,
  FEED_IMAGE_TYPES,
  FEED_PATHS,
  HEALTH_PATH,
  MODERATION_PATHS,
  REPORT_SCREENSHOT_MAX_BYTES,
  REPORT_SCREENSHOT_TYPES,
} from '@serendip/proto';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';
import { AppModule } from './app.module.js';
import type { Config } from './config/config.js';
import { AvatarUploads } from './identity/avatars/avatar-uploads.js';
import { AVATAR_UPLOADS_OPENAPI } from './identity/avatars/avatar-uploads.openapi.js';
import { AdminGuard, AuthGuard, SessionResolver, StaffGuard } from './identity/public/index.js';
import { ALLOWED_WHILE_RESTRICTED } from './identity/public/account-standing.js';
import { authCookieNames } from './identity/sessions/auth-cookies.js';
import { serveApiDocs } from './platform/api-docs/api-docs.js';
import type { Db } from './platform/database/database.js';
import type { EventCore } from './platform/event-core/event-core.js';
import { loggablePath, NestPinoLogger } from './platform/logging/logger.js';
import { createMailSender } from './platform/mail/mail-sender.js';
import { BodyProblemInterceptor, deferredBodyParsers, type RawImageRoute } from './platform/http/body-parsing.js';
import { DatabaseUnavailableFilter } from './platform/http/database-unavailable.filter.js';
import { DomainErrorFilter } from './platform/http/domain-error.filter.js';
import { sameOriginWrites } from './platform/http/same-origin.js';
import { SerendipSocketAdapter } from './platform/realtime/socket-adapter.js';
import { webClient } from './platform/web/web-client.js';

export interface ServerAppDeps {
  config: Config;
  db: Db;
  core: EventCore;
  logger: Logger;
}

/** The routes whose body is a picture's own bytes, not JSON. */
const rawImageRoutes: RawImageRoute[] = [
  // The Report dialog uploads its screenshot as the picture's own bytes (spec 4 "Screenshot capture").
  {
    path: MODERATION_PATHS.uploadScreenshot,
    types: REPORT_SCREENSHOT_TYPES,
    maxBytes: REPORT_SCREENSHOT_MAX_BYTES,
  },
  // A post's picture, as its own bytes.
  { path: FEED_PATHS.images, types: FEED_IMAGE_TYPES, maxBytes: FEED_IMAGE_MAX_BYTES },
];

/** Builds the HTTP + Socket.IO application; used by main and by the HTTP/socket tests alike. */
export async function createServerApp({ config, db, core, logger }: ServerAppDeps): Promise<NestExpressApplication> {
  const mail = createMailSender({ smtpUrl: config.smtpUrl, from: config.mailFrom, nodeEnv: config.nodeEnv, logger });
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register({ config, db, core, mail }), {
    logger: new NestPinoLogger(logger.child({ component: 'nest' })),
    bufferLogs: false,
    // Ours instead (below): a malformed body is answered after the guards, not before.
    bodyParser: false,
  });
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.use(
    helmet({
      // HSTS over plain http is ignored by browsers at best; send it only where the public URL is https.
      strictTransportSecurity: config.publicUrl.startsWith('https:'),
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          'img-src': ["'self'", 'data:', 'blob:', 'https:'],
          'media-src': ["'self'", 'blob:'],
          // 'self' covers our own ws:/wss: socket; no other host may be reached.
          'connect-src': ["'self'"],
          // Plain-http local runs must keep working; production sits behind TLS anyway.
          'upgrade-insecure-requests': null,
        },
      },
    }),
  );
  app.use(
    pinoHttp({
      logger: logger.child({ component: 'http' }),
      // API calls only (static files say nothing); no IPs, headers or query strings: they are personal or secret.
      autoLogging: { ignore: (req) => !req.url?.startsWith(`/${API_PREFIX}/`) || req.url === HEALTH_PATH },
      serializers: {
        req: (req: { method?: string; url?: string }) => ({ method: req.method, path: loggablePath(req.url) }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      },
      customLogLevel: (_req, res, error) =>
        error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    }),
  );
  app.use(cookieParser());
  app.use(sameOriginWrites(config.publicUrl));
  // tus streams raw bytes: mounted before Nest's body parsers (which are added at init) so they never see them.
  app.use(app.get(AvatarUploads).middleware);
  const sessions = app.get(SessionResolver);
  app.use(...deferredBodyParsers(rawImageRoutes, async (req) => (await sessions.resolve(req)) !== undefined));
  app.use(webClient(config.frontendDist, config.publicConfig));
  // Every body is checked against its DTO: unknown fields are refused, each problem is named (400).
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  app.useGlobalInterceptors(new BodyProblemInterceptor());
  // The catch-all first: Nest asks the later, narrower filter first.
  app.useGlobalFilters(new DatabaseUnavailableFilter(app.getHttpAdapter()), new DomainErrorFilter());
  app.useWebSocketAdapter(new SerendipSocketAdapter(app, config.publicUrl));
  app.setGlobalPrefix(API_PREFIX);
  if (config.apiDocs) {
    serveApiDocs(app, {
      guards: new Map<unknown, 'user' | 'staff' | 'admin'>([
        [AuthGuard, 'user'],
        [StaffGuard, 'staff'],
        [AdminGuard, 'admin'],
      ]),
      allowedWhileRestrictedKey: ALLOWED_WHILE_RESTRICTED,
      accessCookie: authCookieNames(config.publicUrl).access,
      publicUrl: config.publicUrl,
      rawImageRoutes,
      outsideNest: AVATAR_UPLOADS_OPENAPI,
    });
  }
  return app;
}
