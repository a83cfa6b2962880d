import {
  API_PREFIX,
  type ActivityPage,
  type CommentView,
  type ContentReportRequest,
  type DashRemovalAppeal,
  type DecideRemovalAppealRequest,
  FEED_PATHS,
  type FeedImageUploaded,
  type FeedPage,
  type LikesView,
  MODERATION_PATHS,
  type PeerProfile,
  type PostDetail,
  type PostView,
  type ReplyView,
} from '@serendip/proto';
import { type HttpClient, httpClient } from '../../shared/http/http-client';

/** FEED_PATHS carry the /api prefix; the HTTP client adds it itself. */
const underApi = (path: string) => path.slice(API_PREFIX.length + 1);
const paged = (path: string, cursor?: string) =>
  cursor ? `${underApi(path)}?cursor=${encodeURIComponent(cursor)}` : underApi(path);

/** The feed's calls (proto/src/http/feed.ts). */
export function createFeedApi(http: HttpClient) {
  return {
    feed: (cursor?: string) => http.get<FeedPage>(paged(FEED_PATHS.posts, cursor)),
    userPosts: (userId: string, cursor?: string) => http.get<FeedPage>(paged(FEED_PATHS.userPosts(userId), cursor)),
    activity: (cursor?: string) => http.get<ActivityPage>(paged(FEED_PATHS.activity, cursor)),
    peer: (userId: string) => http.get<PeerProfile>(underApi(FEED_PATHS.peer(userId))),
    post: (postId: string) => http.get<PostDetail>(underApi(FEED_PATHS.post(postId))),
    /** A post says something, shows a picture (uploaded first), or both. */
    publish: (text: string, imageId?: string) =>
      http.post<PostView>(underApi(FEED_PATHS.posts), { ...(text ? { text } : {}), ...(imageId ? { imageId } : {}) }),
    uploadImage: (file: File) => http.upload<FeedImageUploaded>(underApi(FEED_PATHS.images), file),
    deletePost: (postId: string) => http.del<void>(underApi(FEED_PATHS.post(postId))),
    like: (postId: string) => http.put<LikesView>(underApi(FEED_PATHS.like(postId))),
    unlike: (postId: string) => http.del<LikesView>(underApi(FEED_PATHS.like(postId))),
    comment: (postId: string, text: string) => http.post<CommentView>(underApi(FEED_PATHS.comments(postId)), { text }),
    deleteComment: (commentId: string) => http.del<void>(underApi(FEED_PATHS.comment(commentId))),
    reply: (commentId: string, text: string) => http.post<ReplyView>(underApi(FEED_PATHS.replies(commentId)), { text }),
    deleteReply: (replyId: string) => http.del<void>(underApi(FEED_PATHS.reply(replyId))),
    appealRemoval: (removedId: string, explanation: string) =>
      http.post<unknown>(underApi(FEED_PATHS.appealRemoval(removedId)), { explanation }),
    /** Into the moderation queue (the server finds who wrote it). */
    reportContent: (request: ContentReportRequest) =>
      http.post<unknown>(underApi(MODERATION_PATHS.reportContent), request),
    /** Staff: take a comment or reply down, with the reason its author is shown. */
    remove: (id: string, reason: string) => http.post<unknown>(underApi(FEED_PATHS.remove(id)), { reason }),
    removalAppeals: (signal?: AbortSignal) =>
      http.get<DashRemovalAppeal[]>(underApi(FEED_PATHS.removalAppeals), { signal }),
    decideRemovalAppeal: (id: string, request: DecideRemovalAppealRequest) =>
      http.post<unknown>(underApi(FEED_PATHS.decideRemovalAppeal(id)), request),
  };
}

export type FeedApi = ReturnType<typeof createFeedApi>;
export const feedApi = createFeedApi(httpClient);
