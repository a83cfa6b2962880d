import { logError } from '../../shared/log';

/** spec 4: each live notification plays one of 10 short sounds (frontend/public/sounds, made by scripts/make-notification-sounds.sh). */
export const NOTIFICATION_SOUNDS = Array.from(
  { length: 10 },
  (_, i) => `${import.meta.env.BASE_URL}sounds/notification-${i + 1}.mp3`,
);

/** The 'Notification sounds' switch in settings; on unless turned off in this browser. */
export const NOTIFICATION_SOUNDS_KEY = 'serendip.notificationSounds';

export function notificationSoundsOn(): boolean {
  try {
    return window.localStorage.getItem(NOTIFICATION_SOUNDS_KEY) !== 'off';
  } catch {
    return true; // storage blocked: the default
  }
}

export function setNotificationSounds(on: boolean): void {
  try {
    window.localStorage.setItem(NOTIFICATION_SOUNDS_KEY, on ? 'on' : 'off');
  } catch (error) {
    logError('The notification sound setting could not be saved', error);
  }
}

/** One sound at random; spec 8: a sound that cannot play (autoplay refused, no file) is only logged. */
export function playNotificationSound(random: () => number = Math.random): void {
  const source = NOTIFICATION_SOUNDS[Math.floor(random() * NOTIFICATION_SOUNDS.length)] ?? NOTIFICATION_SOUNDS[0]!;
  try {
    const audio = new Audio(source);
    Promise.resolve(audio.play()).catch((error: unknown) => logError('A notification sound could not play', error));
  } catch (error) {
    logError('A notification sound could not play', error);
  }
}

/** What the notifications saga reaches for sounds, so a test can listen instead. */
export interface NotificationSounds {
  enabled(): boolean;
  play(): void;
}

export const browserNotificationSounds: NotificationSounds = {
  enabled: notificationSoundsOn,
  play: () => playNotificationSound(),
};
