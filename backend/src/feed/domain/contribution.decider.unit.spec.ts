import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../platform/cqrs/decider.js';
import { contribution, type ContributionCommand } from './contribution.decider.js';
import type { ContributionEvent } from './feed.events.js';

const context = { now: new Date('2026-11-26T10:00:00Z'), actor: 'test' };
const add = (violations: string[] = []): ContributionCommand => ({
  type: 'Add',
  kind: 'comment',
  id: 'c1',
  postId: 'p1',
  commentId: 'c1',
  authorId: 'cleo',
  answersAuthorId: 'ada',
  text: 'words',
  violations,
});

/** Runs commands one after another, as the stream would record them; answers every event and the last error. */
function run(...commands: ContributionCommand[]) {
  const events: DomainEvent[] = [];
  let state = contribution.initialState;
  let error: unknown;
  for (const command of commands) {
    try {
      const decided = contribution.decide(command, state, context);
      events.push(...decided);
      state = decided.reduce(contribution.evolve, state);
    } catch (e) {
      error = e;
    }
  }
  return { types: events.map((e) => e.type), events: events as ContributionEvent[], error: error as Error | undefined };
}

describe('a comment or reply', () => {
  it('is removed in the same breath when the filter found a violation', () => {
    const { events } = run(add(['Profanity']));
    expect(events.map((e) => [e.type, 'by' in e.data ? e.data.by : undefined])).toEqual([
      ['CommentAdded', undefined],
      ['CommentRemoved', 'filter'],
    ]);
  });

  it('is deleted only by its author (or the system), once', () => {
    expect(run(add(), { type: 'Delete', by: 'ada' }).error?.message).toBe('You can only delete what you wrote.');
    expect(run(add(), { type: 'Delete', by: 'cleo' }).types).toEqual(['CommentAdded', 'CommentDeleted']);
    expect(run(add(), { type: 'Delete', by: 'system' }).types).toEqual(['CommentAdded', 'CommentDeleted']);
    expect(run(add(), { type: 'Delete', by: 'cleo' }, { type: 'Delete', by: 'cleo' }).error?.message).toBe(
      'This comment no longer exists.',
    );
  });

  it('has its removal appealed once, by its author, and decided by someone other than the remover', () => {
    const removed = [
      add(),
      { type: 'Remove', by: 'mod-1', role: 'moderator', reason: 'Spam' },
    ] as ContributionCommand[];
    expect(run(add(), { type: 'AppealRemoval', by: 'cleo', explanation: 'why' }).error?.message).toBe(
      'This comment was not removed.',
    );
    expect(run(...removed, { type: 'AppealRemoval', by: 'ada', explanation: 'why' }).error?.message).toBe(
      'You can only appeal the removal of your own comment.',
    );
    const appealed = [...removed, { type: 'AppealRemoval', by: 'cleo', explanation: 'why' }] as ContributionCommand[];
    expect(run(...appealed, { type: 'AppealRemoval', by: 'cleo', explanation: 'again' }).error?.message).toBe(
      'You have appealed this removal already.',
    );
    expect(
      run(...appealed, { type: 'DecideRemovalAppeal', by: 'mod-1', role: 'moderator', outcome: 'approved' }).error
        ?.message,
    ).toMatch(/Another staff member/);
    expect(
      run(...appealed, { type: 'DecideRemovalAppeal', by: 'admin-1', role: 'admin', outcome: 'approved' }).types,
    ).toEqual(['CommentAdded', 'CommentRemoved', 'RemovalAppealed', 'RemovalAppealDecided', 'CommentRestored']);
    expect(
      run(...appealed, { type: 'DecideRemovalAppeal', by: 'cleo', role: 'admin', outcome: 'approved' }).error?.message,
    ).toBe('You cannot decide the appeal of your own words.');
    const byAdmin = [
      add(),
      { type: 'Remove', by: 'admin-1', role: 'admin', reason: 'Threats' },
    ] as ContributionCommand[];
    const adminAppealed = [
      ...byAdmin,
      { type: 'AppealRemoval', by: 'cleo', explanation: 'why' },
    ] as ContributionCommand[];
    expect(
      run(...adminAppealed, { type: 'DecideRemovalAppeal', by: 'mod-2', role: 'moderator', outcome: 'approved' }).error
        ?.message,
    ).toBe('Only an admin may decide the appeal of this removal.');
    // Put back, then taken down again: the new removal may be appealed.
    expect(
      run(
        ...appealed,
        { type: 'DecideRemovalAppeal', by: 'admin-1', role: 'admin', outcome: 'approved' },
        { type: 'Remove', by: 'admin-2', role: 'admin', reason: 'Again' },
        { type: 'AppealRemoval', by: 'cleo', explanation: 'Again?' },
      ).types.at(-1),
    ).toBe('RemovalAppealed');
    expect(
      run(...appealed, { type: 'DecideRemovalAppeal', by: 'admin-1', role: 'admin', outcome: 'rejected' }).types.at(-1),
    ).toBe('RemovalAppealDecided');
  });
});
