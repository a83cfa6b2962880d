import { FEED_ERRORS } from '@serendip/proto';
import { type Decider, DomainError } from '../../platform/cqrs/decider.js';
import type { ContributionEvent } from './feed.events.js';
import { NOT_YOURS } from './post.decider.js';

/** A comment on a post, or a reply to a comment: the same life, told in events of its own kind's names. */
export type ContributionKind = 'comment' | 'reply';

export type ContributionCommand =
  | {
      type: 'Add';
      kind: ContributionKind;
      id: string;
      postId: string;
      /** The comment itself, or the comment a reply answers. */
      commentId: string;
      authorId: string;
      /** Whom it answers: the post's author (a comment) or the comment's (a reply). */
      answersAuthorId: string;
      text: string;
      /** What the profanity filter found in it (spec 2 "Comment Removed"): any, and it is removed at once. */
      violations: string[];
    }
  /** `by`: its author, or 'system' (their account, or the post under it, is gone). */
  | { type: 'Delete'; by: string }
  | { type: 'Remove'; by: string; role: StaffRole; reason: string }
  | { type: 'AppealRemoval'; by: string; explanation: string }
  | { type: 'DecideRemovalAppeal'; by: string; role: StaffRole; outcome: 'approved' | 'rejected'; note?: string };

export type StaffRole = 'admin' | 'moderator';

export interface ContributionState {
  kind: ContributionKind;
  id: string;
  postId: string;
  commentId: string;
  authorId: string | undefined;
  status: 'visible' | 'removed' | 'deleted';
  removedBy: string | undefined;
  removedByRole: StaffRole | undefined;
  appeal: 'none' | 'pending' | 'approved' | 'rejected';
}

export const CONTRIBUTION_NOT_FOUND = 'contribution-not-found';
export const NOT_REMOVED = 'not-removed';
export const ALREADY_APPEALED = 'already-appealed';
export const NO_PENDING_APPEAL = 'no-pending-appeal';
export const OWN_REMOVAL = 'own-removal';

const notFound = (kind: ContributionKind) =>
  new DomainError(CONTRIBUTION_NOT_FOUND, kind === 'reply' ? FEED_ERRORS.replyNotFound : FEED_ERRORS.commentNotFound, {
    kind: 'not-found',
  });

const named = {
  comment: { added: 'CommentAdded', deleted: 'CommentDeleted', removed: 'CommentRemoved', restored: 'CommentRestored' },
  reply: { added: 'ReplyAdded', deleted: 'ReplyDeleted', removed: 'ReplyRemoved', restored: 'ReplyRestored' },
} as const;

/**
 * A comment or reply: written (and, if the filter finds a violation, removed in the same breath), deleted by its
 * author, removed by staff, its removal appealed once and decided by a staff member other than the one who removed it.
 */
export const contribution: Decider<ContributionCommand, ContributionState, ContributionEvent> = {
  initialState: {
    kind: 'comment',
    id: '',
    postId: '',
    commentId: '',
    authorId: undefined,
    status: 'visible',
    removedBy: undefined,
    removedByRole: undefined,
    appeal: 'none',
  },
  evolve(state, event) {
    switch (event.type) {
      case 'CommentAdded': {
        const { commentId, postId, authorId } = event.data;
        return { ...state, kind: 'comment', id: commentId, postId, commentId, authorId };
      }
      case 'ReplyAdded': {
        const { replyId, commentId, postId, authorId } = event.data;
        return { ...state, kind: 'reply', id: replyId, postId, commentId, authorId };
      }
      case 'CommentDeleted':
      case 'ReplyDeleted':
        return { ...state, status: 'deleted' };
      case 'CommentRemoved':
      case 'ReplyRemoved':
        return {
          ...state,
          status: 'removed',
          removedBy: event.data.by,
          removedByRole: event.data.byRole,
          // Put back by an appeal and taken down again: the new removal may be appealed too.
          appeal: state.appeal === 'approved' ? 'none' : state.appeal,
        };
      case 'RemovalAppealed':
        return { ...state, appeal: 'pending' };
      case 'RemovalAppealDecided':
        return { ...state, appeal: event.data.outcome };
      case 'CommentRestored':
      case 'ReplyRestored':
        return { ...state, status: 'visible', removedBy: undefined, removedByRole: undefined };
    }
  },
  decide(command, state) {
    if (command.type === 'Add') {
      if (state.authorId !== undefined) return [];
      const ids = { id: command.id, postId: command.postId, commentId: command.commentId, authorId: command.authorId };
      const added: ContributionEvent =
        command.kind === 'comment'
          ? {
              type: 'CommentAdded',
              data: {
                commentId: command.id,
                postId: command.postId,
                authorId: command.authorId,
                postAuthorId: command.answersAuthorId,
                text: command.text,
              },
            }
          : {
              type: 'ReplyAdded',
              data: {
                replyId: command.id,
                commentId: command.commentId,
                postId: command.postId,
                authorId: command.authorId,
                commentAuthorId: command.answersAuthorId,
                text: command.text,
              },
            };
      if (command.violations.length === 0) return [added];
      return [
        added,
        { type: named[command.kind].removed, data: { ...ids, by: 'filter', categories: command.violations } },
      ];
    }

    if (state.authorId === undefined || state.status === 'deleted') throw notFound(state.kind);
    const ids = { id: state.id, postId: state.postId, commentId: state.commentId, authorId: state.authorId };
    const names = named[state.kind];
    switch (command.type) {
      case 'Delete':
        if (command.by !== state.authorId && command.by !== 'system')
          throw new DomainError(NOT_YOURS, FEED_ERRORS.notYours, { kind: 'forbidden' });
        return [{ type: names.deleted, data: { ...ids, by: command.by } }];
      case 'Remove':
        if (state.status === 'removed') return [];
        return [
          {
            type: names.removed,
            data: { ...ids, by: command.by, byRole: command.role, categories: [], reason: command.reason },
          },
        ];
      case 'AppealRemoval':
        if (command.by !== state.authorId)
          throw new DomainError(NOT_YOURS, FEED_ERRORS.removalNotYours, { kind: 'forbidden' });
        if (state.appeal !== 'none')
          throw new DomainError(ALREADY_APPEALED, FEED_ERRORS.alreadyAppealed, { kind: 'conflict' });
        if (state.status !== 'removed')
          throw new DomainError(NOT_REMOVED, FEED_ERRORS.notRemoved, { kind: 'conflict' });
        return [{ type: 'RemovalAppealed', data: { ...ids, kind: state.kind, explanation: command.explanation } }];
      case 'DecideRemovalAppeal': {
        if (state.appeal !== 'pending')
          throw new DomainError(NO_PENDING_APPEAL, 'This appeal is not waiting for a decision.', { kind: 'conflict' });
        // A review is someone else's look: not the author's own, nor the remover's; and an admin's removal stays an
        // admin's call (as a ban's appeal, moderation/domain/appeal-authority.ts).
        if (command.by === state.authorId)
          throw new DomainError(OWN_REMOVAL, 'You cannot decide the appeal of your own words.', { kind: 'forbidden' });
        if (command.by === state.removedBy)
          throw new DomainError(OWN_REMOVAL, 'Another staff member decides the appeal of a removal you made.', {
            kind: 'forbidden',
          });
        if (state.removedByRole === 'admin' && command.role !== 'admin')
          throw new DomainError(OWN_REMOVAL, 'Only an admin may decide the appeal of this removal.', {
            kind: 'forbidden',
          });
        const decided: ContributionEvent = {
          type: 'RemovalAppealDecided',
          data: {
            ...ids,
            kind: state.kind,
            outcome: command.outcome,
            decidedBy: command.by,
            ...(command.note ? { note: command.note } : {}),
          },
        };
        return command.outcome === 'approved' && state.status === 'removed'
          ? [decided, { type: names.restored, data: ids }]
          : [decided];
      }
    }
  },
};
