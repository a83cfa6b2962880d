import {
  Body,
  Controller,
  Delete,
  Get,
  Header,
  HttpCode,
  Inject,
  Param,
  Post,
  Put,
  Query,
  Req,
  Res,
  StreamableFile,
  UseGuards,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  type ActivityPage,
  type AddCommentRequest,
  addCommentRequestSchema,
  addReplyRequestSchema,
  type AppealRemovalRequest,
  appealRemovalRequestSchema,
  type CommentView,
  FEED_ERRORS,
  type FeedImageUploaded,
  type FeedPage,
  type LikesView,
  type PeerProfile,
  type PostDetail,
  type PostView,
  type PublishPostRequest,
  publishPostRequestSchema,
  type ReplyView,
} from '@serendip/proto';
import { type AuthenticatedRequest, AuthGuard, CommandMeta, UserDirectory } from '../../identity/public/index.js';
import { DomainError, invalidField } from '../../platform/cqrs/decider.js';
import type { Response } from 'express';
import { UploadFeedImage } from '../commands/upload-image/upload-image.command.js';
import { FeedImages } from '../images/feed-images.js';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import { type Limit, RATE_LIMITS, type RateLimits } from '../../platform/http/rate-limits.js';
import { zodBody } from '../../platform/http/zod-body.js';
import { AddContribution } from '../commands/add-contribution/add-contribution.command.js';
import { ChangeContribution } from '../commands/change-contribution/change-contribution.command.js';
import { DeletePost } from '../commands/delete-post/delete-post.command.js';
import { LikePost } from '../commands/like-post/like-post.command.js';
import { PublishPost } from '../commands/publish-post/publish-post.command.js';
import { postNotFound } from '../domain/post.decider.js';
import { ActivityReads } from '../queries/activity/activity-reads.js';
import { badCursor } from '../queries/posts/cursor.js';
import { PostReads, type Viewer } from '../queries/posts/post-reads.js';
import { ApiAnswers } from '../../platform/api-docs/api-answers.js';

/** Far above what a person writes; a script posting or commenting in a loop stops here. */
export const FEED_WRITE_LIMITS = {
  posts: { name: 'feed-posts-user', points: 30, durationSeconds: 60 * 60 },
  contributions: { name: 'feed-contributions-user', points: 200, durationSeconds: 60 * 60 },
  likes: { name: 'feed-likes-user', points: 1_000, durationSeconds: 60 * 60 },
  deletions: { name: 'feed-deletions-user', points: 300, durationSeconds: 60 * 60 },
  appeals: { name: 'feed-appeals-user', points: 20, durationSeconds: 60 * 60 },
} satisfies Record<string, Limit>;

/** `?cursor=` given twice is an array: no cursor this server made. */
const cursorOf = (cursor: unknown) => {
  if (cursor === undefined) return undefined;
  if (typeof cursor !== 'string') throw badCursor();
  return cursor;
};

/**
 * The feed (proto FEED_PATHS): signed-in people who are not restricted (AuthGuard turns a banned account away before
 * anything is read). Everything is done as the caller: no author id is ever taken from a body.
 */
@Controller('feed')
@UseGuards(AuthGuard)
export class FeedController {
  constructor(
    private readonly commands: CommandBus,
    private readonly posts: PostReads,
    private readonly activityReads: ActivityReads,
    private readonly users: UserDirectory,
    private readonly images: FeedImages,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
  ) {}

  @Get('posts')
  @Header('Cache-Control', 'private, no-store')
  async feed(@Req() req: AuthenticatedRequest, @Query('cursor') cursor: unknown): Promise<FeedPage> {
    return this.posts.page(await this.viewer(req), cursorOf(cursor));
  }

  @ApiAnswers({ 429: 'Over 30 posts an hour.' })
  @Post('posts')
  async publish(
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
    @Body(zodBody(publishPostRequestSchema)) body: PublishPostRequest,
  ): Promise<PostView> {
    await this.limits.take(FEED_WRITE_LIMITS.posts, req.auth.userId);
    const { postId } = await this.commands.execute(
      new PublishPost(req.auth.userId, body.text ?? '', body.imageId, meta),
    );
    const published = await this.posts.detail(await this.viewer(req), postId);
    if (!published) throw postNotFound();
    const { comments: _none, ...view } = published;
    return view;
  }

  /** A post's picture, as its bytes (FEED_IMAGE_TYPES); POST it before the post that shows it. */
  @ApiAnswers({ 429: 'Too many pictures waiting to be posted; Retry-After says when.' })
  @Post('images')
  @HttpCode(201)
  upload(@Req() req: AuthenticatedRequest): Promise<FeedImageUploaded> {
    const bytes: unknown = req.body;
    if (!Buffer.isBuffer(bytes) || bytes.length === 0) {
      throw invalidField('image', 'send the picture itself as the body (image/jpeg, image/png or image/webp)');
    }
    return this.commands.execute(new UploadFeedImage(req.auth.userId, bytes));
  }

  @Get('images/:imageId')
  async image(
    @Req() req: AuthenticatedRequest,
    @Param('imageId') imageId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
    const bytes = await this.images.read(imageId, req.auth.userId);
    res.setHeader('Content-Type', 'image/webp');
    // A picture never changes under its id; who may see it can, so only the browser keeps it, and not for long.
    res.setHeader('Cache-Control', 'private, max-age=300');
    return new StreamableFile(bytes);
  }

  @Get('posts/:postId')
  @Header('Cache-Control', 'private, no-store')
  async post(@Req() req: AuthenticatedRequest, @Param('postId') postId: string): Promise<PostDetail> {
    const found = await this.posts.detail(await this.viewer(req), postId);
    if (!found) throw postNotFound();
    return found;
  }

  @ApiAnswers({ 429: 'Over 300 deletions an hour.' })
  @Delete('posts/:postId')
  @HttpCode(204)
  async deletePost(
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
    @Param('postId') postId: string,
  ) {
    await this.limits.take(FEED_WRITE_LIMITS.deletions, req.auth.userId);
    await this.commands.execute(new DeletePost(checkedId(postId, 'post'), req.auth.userId, meta));
  }

  @ApiAnswers({ 429: 'Over 1,000 likes an hour.' })
  @Put('posts/:postId/like')
  async like(
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
    @Param('postId') postId: string,
  ): Promise<LikesView> {
    await this.limits.take(FEED_WRITE_LIMITS.likes, req.auth.userId);
    return this.commands.execute(new LikePost(checkedId(postId, 'post'), req.auth.userId, true, meta));
  }

  @ApiAnswers({ 429: 'Over 1,000 likes an hour.' })
  @Delete('posts/:postId/like')
  async unlike(
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
    @Param('postId') postId: string,
  ): Promise<LikesView> {
    await this.limits.take(FEED_WRITE_LIMITS.likes, req.auth.userId);
    return this.commands.execute(new LikePost(checkedId(postId, 'post'), req.auth.userId, false, meta));
  }

  @ApiAnswers({ 429: 'Over 200 comments and replies an hour.' })
  @Post('posts/:postId/comments')
  async comment(
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
    @Param('postId') postId: string,
    @Body(zodBody(addCommentRequestSchema)) body: AddCommentRequest,
  ): Promise<CommentView> {
    await this.limits.take(FEED_WRITE_LIMITS.contributions, req.auth.userId);
    return this.commands.execute(
      new AddContribution('comment', checkedId(postId, 'post'), req.auth.userId, body.text, meta),
    ) as Promise<CommentView>;
  }

  @ApiAnswers({ 429: 'Over 300 deletions an hour.' })
  @Delete('comments/:id')
  @HttpCode(204)
  async deleteComment(@Req() req: AuthenticatedRequest, @CommandMeta() meta: CommandMetadata, @Param('id') id: string) {
    await this.limits.take(FEED_WRITE_LIMITS.deletions, req.auth.userId);
    await this.commands.execute(new ChangeContribution(id, 'comment', { type: 'Delete', by: req.auth.userId }, meta));
  }

  @ApiAnswers({ 429: 'Over 200 comments and replies an hour.' })
  @Post('comments/:id/replies')
  async reply(
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
    @Param('id') commentId: string,
    @Body(zodBody(addReplyRequestSchema)) body: AddCommentRequest,
  ): Promise<ReplyView> {
    await this.limits.take(FEED_WRITE_LIMITS.contributions, req.auth.userId);
    return this.commands.execute(
      new AddContribution('reply', checkedId(commentId, 'comment'), req.auth.userId, body.text, meta),
    ) as Promise<ReplyView>;
  }

  @ApiAnswers({ 429: 'Over 300 deletions an hour.' })
  @Delete('replies/:id')
  @HttpCode(204)
  async deleteReply(@Req() req: AuthenticatedRequest, @CommandMeta() meta: CommandMetadata, @Param('id') id: string) {
    await this.limits.take(FEED_WRITE_LIMITS.deletions, req.auth.userId);
    await this.commands.execute(new ChangeContribution(id, 'reply', { type: 'Delete', by: req.auth.userId }, meta));
  }

  @ApiAnswers({ 409: 'The removal was already appealed, or nothing was removed.', 429: 'Over 20 appeals an hour.' })
  @Post('removals/:id/appeal')
  @HttpCode(204)
  async appeal(
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
    @Param('id') id: string,
    @Body(zodBody(appealRemovalRequestSchema)) body: AppealRemovalRequest,
  ) {
    await this.limits.take(FEED_WRITE_LIMITS.appeals, req.auth.userId);
    await this.commands.execute(
      new ChangeContribution(
        id,
        undefined,
        { type: 'AppealRemoval', by: req.auth.userId, explanation: body.explanation },
        meta,
      ),
    );
  }

  @Get('users/:userId/posts')
  @Header('Cache-Control', 'private, no-store')
  async userPosts(
    @Req() req: AuthenticatedRequest,
    @Param('userId') userId: string,
    @Query('cursor') cursor: unknown,
  ): Promise<FeedPage> {
    const viewer = await this.viewer(req);
    if (!(await this.users.publicProfile(userId))) throw noSuchUser();
    return this.posts.page(viewer, cursorOf(cursor), userId);
  }

  @Get('users/:userId')
  @Header('Cache-Control', 'private, no-store')
  async peer(@Param('userId') userId: string): Promise<PeerProfile> {
    const profile = await this.users.publicProfile(userId);
    if (!profile) throw noSuchUser();
    return { _id: userId, ...profile };
  }

  @Get('activity')
  @Header('Cache-Control', 'private, no-store')
  async activity(@Req() req: AuthenticatedRequest, @Query('cursor') cursor: unknown): Promise<ActivityPage> {
    return this.activityReads.page(req.auth.userId, cursorOf(cursor));
  }

  private async viewer(req: AuthenticatedRequest): Promise<Viewer> {
    return { userId: req.auth.userId, staff: (await this.users.staffRoleOf(req.auth)) !== 'user' };
  }
}

const noSuchUser = () => new DomainError('no-such-user', 'No such user', { kind: 'not-found' });

/** A malformed id names nothing: the same 404 as one that is gone, before any stream is read. */
function checkedId(id: string, what: 'post' | 'comment'): string {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return id.toLowerCase();
  throw what === 'post'
    ? postNotFound()
    : new DomainError('comment-not-found', FEED_ERRORS.commentNotFound, { kind: 'not-found' });
}
