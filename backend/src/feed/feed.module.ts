import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/public/index.js';
import { MatchingModule } from '../matching/public/index.js';
import { AddContributionHandler } from './commands/add-contribution/add-contribution.command.js';
import { ChangeContributionHandler } from './commands/change-contribution/change-contribution.command.js';
import { DeletePostHandler } from './commands/delete-post/delete-post.command.js';
import { LikePostHandler } from './commands/like-post/like-post.command.js';
import { PublishPostHandler } from './commands/publish-post/publish-post.command.js';
import { FeedStaffController } from './http/feed-staff.controller.js';
import { FeedController } from './http/feed.controller.js';
import { FeedLive } from './integration/feed-live.js';
import { FeedNotices } from './integration/feed-notices.js';
import { FeedStanding } from './integration/feed-standing.js';
import { FeedContent } from './public/feed-content.js';
import { FeedImages } from './images/feed-images.js';
import { UploadFeedImageHandler } from './commands/upload-image/upload-image.command.js';
import { ActivityReads } from './queries/activity/activity-reads.js';
import { PostReads } from './queries/posts/post-reads.js';
import { RemovalAppeals } from './queries/removal-appeals/removal-appeals.js';

/**
 * The feed (spec 1, 3, 4, 5, 7): posts, likes, comments and replies, live on every open page; the profanity filter's
 * removals, told to their authors and open to appeal; the peer page and the activity page.
 */
@Module({
  imports: [IdentityModule, MatchingModule],
  controllers: [FeedController, FeedStaffController],
  providers: [
    FeedContent,
    FeedImages,
    UploadFeedImageHandler,
    PostReads,
    ActivityReads,
    RemovalAppeals,
    FeedLive,
    FeedNotices,
    FeedStanding,
    PublishPostHandler,
    DeletePostHandler,
    LikePostHandler,
    AddContributionHandler,
    ChangeContributionHandler,
  ],
  exports: [FeedContent],
})
export class FeedModule {}
