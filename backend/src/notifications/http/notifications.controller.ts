import {
  BadRequestException,
  Controller,
  ForbiddenException,
  Get,
  HttpCode,
  Param,
  Put,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { type NotificationView, TOTAL_COUNT_HEADER, TOTAL_PAGES_HEADER, UNREAD_COUNT_HEADER } from '@serendip/proto';
import type { Response } from 'express';
import {
  AllowedWhileRestricted,
  type AuthenticatedRequest,
  AuthGuard,
  commandMetaOf,
} from '../../identity/public/index.js';
import { ReadAllNotifications, ReadNotification } from '../commands/read-notifications/read-notifications.command.js';
import { NotificationList } from '../queries/notification-list/notification-list.js';

/** What someone hears who asks for another person's notifications (spec 7 "only for oneself"). */
export const NOT_YOUR_NOTIFICATIONS = 'You can only see your own notifications.';

/**
 * spec 7 notification calls (paths in proto NOTIFICATION_PATHS), each for the signed-in user only: a `userId` that is
 * not theirs is 403 before anything is read, and a notification that is not theirs (nor to everyone) is 404. Open to a
 * banned user too: what their appeal came to, or that their ban ended, reaches them on the banned screen.
 */
@Controller('notifications')
@UseGuards(AuthGuard)
@AllowedWhileRestricted()
export class NotificationsController {
  constructor(
    private readonly list: NotificationList,
    private readonly commands: CommandBus,
  ) {}

  /** spec 7 GET /notifications/{userId}: newest first, paged (?page=1), totals and unread count in headers. */
  @Get(':userId')
  async page(
    @Param('userId') userId: string,
    @Query('page') page: unknown,
    @Req() req: AuthenticatedRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<NotificationView[]> {
    ownOnly(req, userId);
    const { items, total, totalPages, unread } = await this.list.page(userId, pageNumber(page));
    res.setHeader(TOTAL_COUNT_HEADER, String(total));
    res.setHeader(TOTAL_PAGES_HEADER, String(totalPages));
    res.setHeader(UNREAD_COUNT_HEADER, String(unread));
    res.setHeader('Cache-Control', 'private, no-store');
    return items;
  }

  /** spec 7 GET /notifications/force-open/{userId}: the forced-open ones still waiting for OK, oldest first. */
  @Get('force-open/:userId')
  async forceOpen(
    @Param('userId') userId: string,
    @Req() req: AuthenticatedRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<NotificationView[]> {
    ownOnly(req, userId);
    res.setHeader('Cache-Control', 'private, no-store');
    return this.list.forceOpen(userId);
  }

  /** spec 7 PUT /notifications/{id}/markForceAsRead: OK on the announcement overlay. */
  @Put(':id/markForceAsRead')
  @HttpCode(204)
  async confirm(@Param('id') id: string, @Req() req: AuthenticatedRequest): Promise<void> {
    await this.commands.execute(new ReadNotification(req.auth.userId, id, true, commandMetaOf(req)));
  }

  @Put(':id/read')
  @HttpCode(204)
  async read(@Param('id') id: string, @Req() req: AuthenticatedRequest): Promise<void> {
    await this.commands.execute(new ReadNotification(req.auth.userId, id, false, commandMetaOf(req)));
  }

  /** Every notification of the caller's read (a forced-open one still waits for its OK). */
  @Put('read-all')
  @HttpCode(204)
  async readAll(@Req() req: AuthenticatedRequest): Promise<void> {
    await this.commands.execute(new ReadAllNotifications(req.auth.userId, commandMetaOf(req)));
  }
}

function ownOnly(req: AuthenticatedRequest, userId: string) {
  if (userId !== req.auth.userId) throw new ForbiddenException(NOT_YOUR_NOTIFICATIONS);
}

/** `?page=`: absent is 1; anything but a whole number from 1 is a 400 naming the field. */
function pageNumber(page: unknown): number {
  if (page === undefined) return 1;
  if (typeof page !== 'string' || !/^[1-9]\d{0,5}$/.test(page)) {
    throw new BadRequestException(['page: must be a whole number from 1']);
  }
  return Number(page);
}
