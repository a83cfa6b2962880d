import { Body, Controller, Post, Req, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { type AnnouncementRequest, announcementRequestSchema } from '@serendip/proto';
import { v5 as uuidv5 } from 'uuid';
import { AdminGuard, type AuthenticatedRequest, commandMetaOf } from '../../identity/public/index.js';
import { zodBody } from '../../platform/http/zod-body.js';
import { SendNotification } from '../commands/send-notification/send-notification.command.js';

// A retried request (same Idempotency-Key, hence the same command id) names the same notification: sent once.
const ANNOUNCEMENT_ID_NAMESPACE = '0b8e6f9e-3c1d-4a5b-9e2f-7d6c5b4a3f21';

/**
 * An admin's announcement (spec 2 "Announcement overlay", 3 Notification): to everyone (one notification, however many
 * users) or to one user, optionally forced open. Admins only, with two-factor login and a code session (AdminGuard,
 * which runs before the body is read).
 */
@Controller('dash/announcements')
@UseGuards(AdminGuard)
export class AnnouncementsController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  async announce(
    @Body(zodBody(announcementRequestSchema)) body: AnnouncementRequest,
    @Req() req: AuthenticatedRequest,
  ): Promise<{ notificationId: string }> {
    const meta = commandMetaOf(req);
    return this.commands.execute(
      new SendNotification(
        {
          notificationId: uuidv5(`announcement:${meta.commandId}`, ANNOUNCEMENT_ID_NAMESPACE),
          recipientId: body.userId ?? null,
          kind: 'announcement',
          title: body.title,
          description: body.description,
          ...(body.adminAnnouncement ? { adminAnnouncement: body.adminAnnouncement } : {}),
          forceOpen: body.forceOpen,
          sentBy: req.auth.userId,
        },
        meta,
      ),
    );
  }
}
