import { Logger } from '@nestjs/common';
import { ConnectedSocket, MessageBody, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import {
  pingRequestSchema,
  type Pong,
  type SocketErrorAnswer,
  SYSTEM_EVENTS,
  type SystemClientToServerEvents,
  type SystemServerToClientEvents,
} from '@serendip/proto';
import type { Socket } from 'socket.io';

type SystemSocket = Socket<SystemClientToServerEvents, SystemServerToClientEvents>;

/**
 * The default namespace. Authentication joins it with the identity issue; until then it only proves the
 * realtime path end to end with a ping.
 */
@WebSocketGateway()
export class SystemGateway {
  private readonly logger = new Logger(SystemGateway.name);

  @SubscribeMessage(SYSTEM_EVENTS.ping)
  ping(@MessageBody() body: unknown, @ConnectedSocket() socket: SystemSocket): Pong | SocketErrorAnswer {
    const request = pingRequestSchema.safeParse(body);
    if (!request.success) {
      this.logger.debug(`malformed ping from ${socket.id}`);
      return { error: { reason: 'ping needs { sentAt: number }' } };
    }
    return { sentAt: request.data.sentAt, serverTime: Date.now() };
  }
}
