import { describe, expect, it } from 'vitest';
import { SfuError } from './media/sfu-error.js';
import { parseSfuRequest } from './sfu-request.js';

function refusal(raw: unknown): { code: string; reason: string } | undefined {
  try {
    parseSfuRequest(raw);
    return undefined;
  } catch (error) {
    if (!(error instanceof SfuError)) throw error;
    return { code: error.code, reason: error.reason };
  }
}

describe('parseSfuRequest', () => {
  it('passes well-formed requests through', () => {
    const produce = { type: 'produce', roomId: 'r', peerId: 'p', kind: 'video', rtpParameters: { codecs: [] } };
    expect(parseSfuRequest(produce)).toBe(produce);
    expect(parseSfuRequest({ type: 'load' })).toEqual({ type: 'load' });
  });

  it('refuses non-objects, unknown types, and missing or malformed fields as invalid', () => {
    expect(refusal(null)).toMatchObject({ code: 'invalid' });
    expect(refusal([])).toMatchObject({ code: 'invalid' });
    expect(refusal({ type: 'toString' })).toMatchObject({
      code: 'invalid',
      reason: expect.stringContaining('Unknown'),
    });
    expect(refusal({ type: 'joinRoom', roomId: 'r', peerId: '' })).toMatchObject({
      code: 'invalid',
      reason: expect.stringContaining('peerId'),
    });
    expect(refusal({ type: 'produce', roomId: 'r', peerId: 'p', kind: 'screen', rtpParameters: {} })).toMatchObject({
      reason: expect.stringContaining('kind'),
    });
    expect(
      refusal({ type: 'connectTransport', roomId: 'r', peerId: 'p', transportId: 't', dtlsParameters: 'x' }),
    ).toMatchObject({ reason: expect.stringContaining('dtlsParameters') });
  });
});
