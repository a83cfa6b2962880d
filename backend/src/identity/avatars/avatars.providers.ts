import type { Provider } from '@nestjs/common';
import { avatarStorageProvider } from './avatar-storage.js';
import { AvatarUploads } from './avatar-uploads.js';

/** What the avatar feature adds to the app; AvatarUploads is mounted on Express in app.ts. */
export const AVATAR_PROVIDERS: Provider[] = [avatarStorageProvider, AvatarUploads];
