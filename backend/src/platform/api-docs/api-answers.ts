import { SetMetadata } from '@nestjs/common';

export const API_ANSWERS = 'serendip:api-answers';

/** An error answer the API docs cannot see from the route itself (it comes from a command, a limit or a store). */
export type ExtraAnswers = Partial<
  Record<400 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503, string | { description: string; sameBodyAsSuccess: true }>
>;

/**
 * Names the refusals a route can give beyond what its guards, body, query and path already say (platform/api-docs
 * derives those): a conflict (409), a rate limit (429), a busy server (503). Read only by the API docs.
 */
export const ApiAnswers = (answers: ExtraAnswers) => SetMetadata(API_ANSWERS, answers);
