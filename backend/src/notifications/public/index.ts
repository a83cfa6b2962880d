/**
 * Notifications' public surface (DESIGN.md "Conventions"): another context that must tell someone something sends it
 * with this command (through the CommandBus); notifications stores it once and delivers it live.
 */
export {
  NO_SUCH_RECIPIENT,
  type NewNotification,
  SendNotification,
} from '../commands/send-notification/send-notification.command.js';
