import { Controller, Get, Inject, NotFoundException, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AVATAR_STORAGE, type AvatarStorage, isAvatarName } from './avatar-storage.js';

/** GET /api/avatars/:file: public, since match partners see each other's avatars (spec 3 "Partner data"). */
@Controller('avatars')
export class AvatarsController {
  constructor(@Inject(AVATAR_STORAGE) private readonly storage: AvatarStorage) {}

  @Get(':file')
  async avatar(@Param('file') file: string, @Res() res: Response): Promise<void> {
    // Only names we made ever reach the storage: no traversal, no probing of other files.
    const bytes = isAvatarName(file) ? await this.storage.read(file) : undefined;
    if (!bytes) throw new NotFoundException();
    res.set({
      'Content-Type': 'image/webp',
      'X-Content-Type-Options': 'nosniff',
      // A name is never reused for other content, so a copy never goes stale.
      'Cache-Control': 'public, max-age=31536000, immutable',
    });
    res.send(bytes);
  }
}
