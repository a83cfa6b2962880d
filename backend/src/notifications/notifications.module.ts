import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/public/index.js';
import {
  ReadAllNotificationsHandler,
  ReadNotificationHandler,
} from './commands/read-notifications/read-notifications.command.js';
import { SendNotificationHandler } from './commands/send-notification/send-notification.command.js';
import { AnnouncementsController } from './http/announcements.controller.js';
import { NotificationsController } from './http/notifications.controller.js';
import { DeliverNotifications } from './integration/deliver-notifications.js';
import { ForgetDeletedInboxes } from './integration/forget-deleted-accounts.js';
import { NotificationSources } from './integration/notification-sources.js';
import { NotificationList } from './queries/notification-list/notification-list.js';

/**
 * Notifications (spec 3 Notification, 4 "Notifications", 7): each user's list and read state, admins' announcements,
 * the moderation outcomes people are told of, and their live delivery to every open page (DESIGN.md "Fan-out: NATS").
 */
@Module({
  imports: [IdentityModule],
  controllers: [NotificationsController, AnnouncementsController],
  providers: [
    NotificationList,
    SendNotificationHandler,
    ReadNotificationHandler,
    ReadAllNotificationsHandler,
    DeliverNotifications,
    NotificationSources,
    ForgetDeletedInboxes,
  ],
})
export class NotificationsModule {}
