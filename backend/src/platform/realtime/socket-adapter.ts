import type { IncomingMessage } from 'node:http';
import type { INestApplicationContext } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';

/**
 * Socket.IO for every gateway: WebSocket only (spec 7), and only from our own pages. Browsers always send
 * Origin on a WebSocket; another site's page opening a socket with the user's cookies (cross-site WebSocket
 * hijacking) is refused here. Clients that are not browsers send no Origin and are let through to auth.
 */
export class SerendipSocketAdapter extends IoAdapter {
  constructor(
    app: INestApplicationContext,
    private readonly publicUrl: string,
  ) {
    super(app);
  }

  override createIOServer(port: number, options?: IoServerOptions) {
    return super.createIOServer(port, {
      ...options,
      transports: ['websocket'],
      allowRequest: (req: IncomingMessage, callback: (err: string | null, ok: boolean) => void) =>
        callback(null, isAllowedOrigin(req, this.publicUrl)),
    } as IoServerOptions);
  }
}

// Nest's socket.io copy, whose option types are the ones this override must match.
type IoServerOptions = Parameters<IoAdapter['createIOServer']>[1];

export function isAllowedOrigin(req: Pick<IncomingMessage, 'headers'>, publicUrl: string): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  try {
    const url = new URL(origin);
    return url.origin === new URL(publicUrl).origin || url.host === req.headers.host;
  } catch {
    return false;
  }
}
