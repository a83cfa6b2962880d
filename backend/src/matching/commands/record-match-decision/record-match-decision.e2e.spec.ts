import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test-support/test-app.js';
import { matchStream } from '../../domain/match.events.js';
import { RecordMatchDecision } from './record-match-decision.command.js';

const ANYONE = { gender: null, country: null, ageRange: [18, 110] as [number, number] };

/** The matchmaker's decisions on a call's stream, as the coordinator records them. */
describe('RecordMatchDecision', () => {
  let test: TestApp;

  beforeAll(async () => {
    test = await startTestApp();
  });
  afterAll(async () => {
    await test?.close();
  });

  const types = async (matchId: string) =>
    (await test.core.store.readStream(matchStream(matchId))).map(
      (e) => `${e.type}${e.type === 'MatchRelayed' ? `:${(e.data as { sfuNode: string }).sfuNode}` : ''}`,
    );

  it('records each move of a relayed call to another SFU node (its room was lost), and a repeat only once', async () => {
    const bus = test.app.get(CommandBus);
    const matchId = randomUUID();
    const sides = [
      { userId: randomUUID(), filters: ANYONE, waitedMs: 10 },
      { userId: randomUUID(), filters: ANYONE, waitedMs: 0 },
    ] as const;
    await bus.execute(new RecordMatchDecision({ type: 'Pair', matchId, sides: [...sides] }));
    await bus.execute(new RecordMatchDecision({ type: 'Relay', matchId, reason: 'hide-ip', sfuNode: 'node-a' }));
    await bus.execute(new RecordMatchDecision({ type: 'Relay', matchId, reason: 'hide-ip', sfuNode: 'node-a' }));
    await bus.execute(new RecordMatchDecision({ type: 'Relay', matchId, reason: 'hide-ip', sfuNode: 'node-b' }));
    await bus.execute(new RecordMatchDecision({ type: 'Relay', matchId, reason: 'hide-ip', sfuNode: 'node-a' }));
    await bus.execute(new RecordMatchDecision({ type: 'End', matchId, endedBy: null, reason: 'disconnect' }));
    await bus.execute(new RecordMatchDecision({ type: 'End', matchId, endedBy: null, reason: 'disconnect' }));

    expect(await types(matchId)).toEqual([
      'MatchPaired',
      'MatchRelayed:node-a',
      'MatchRelayed:node-b',
      'MatchRelayed:node-a',
      'MatchEnded',
    ]);
  });
});
