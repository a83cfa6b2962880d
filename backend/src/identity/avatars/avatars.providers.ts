import type { Provider } from '@nestjs/common';
import { avatarStorageProvider } from './avatar-storage.js';
import { AvatarUploads } from './avatar-uploads.js';
import { ChangeAvatarService } from './change-avatar.service.js';

/** What the avatar feature adds to the app (issue 6); AvatarUploads is mounted on Express in app.ts. */
export const AVATAR_PROVIDERS: Provider[] = [avatarStorageProvider, ChangeAvatarService, AvatarUploads];
