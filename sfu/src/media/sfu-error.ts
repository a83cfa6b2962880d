import type { SfuErrorCode } from '@serendip/proto';

/** A refusal the RPC answers as `{ ok: false, error: { code, reason } }`; the reason is shown to people. */
export class SfuError extends Error {
  constructor(
    readonly code: SfuErrorCode,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'SfuError';
  }
}
