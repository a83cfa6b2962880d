import type { DomainEvent } from '../../platform/cqrs/decider.js';
import type { EventCore } from '../../platform/event-core/event-core.js';
import type { Position } from '../../platform/event-store/event-store.js';
import { contribution, type ContributionState } from '../domain/contribution.decider.js';
import { commentStream, postStream, replyStream } from '../domain/feed.events.js';
import { post, type PostState } from '../domain/post.decider.js';

const fold = async <S, E extends DomainEvent>(
  core: EventCore,
  stream: string,
  decider: { initialState: S; evolve(state: S, event: E): S },
) =>
  (await core.store.readStream(stream))
    .map((e) => ({ type: e.type, data: e.data }) as E)
    .reduce(decider.evolve, decider.initialState);

/** A post as its stream tells it now (what a like or comment checks it is answering). */
export const postNow = (core: EventCore, postId: string): Promise<PostState> => fold(core, postStream(postId), post);

/** A comment or reply as its stream tells it now. */
export const contributionNow = (core: EventCore, id: string, kind: 'comment' | 'reply'): Promise<ContributionState> =>
  fold(core, kind === 'comment' ? commentStream(id) : replyStream(id), contribution);

/** The writer's next read (their own page) shows what they just did. */
export async function readYourWrite(core: EventCore, position: Position | undefined): Promise<void> {
  if (position) await core.projections.caughtUpTo(position, 5_000).catch(() => undefined);
}
