import { checkSfuRequest, sfuAnswerSchemas, type SfuRequest } from '@serendip/proto';
import { SfuError } from './media/sfu-error.js';

/**
 * Checks a request from the bus against the RPC's schema (DESIGN.md "Shape"): a bad shape answers 'invalid' with
 * the field at fault, and never throws anything else across the port. mediasoup checks the inside of its own
 * parameter objects.
 */
export function parseSfuRequest(raw: unknown): SfuRequest {
  const checked = checkSfuRequest(raw);
  // The schema transforms nothing: the request passes on as sent, not as a copy (the handlers read only the fields
  // just checked, and mediasoup's parameter objects stay the very objects that came).
  if (checked.ok) return raw as SfuRequest;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new SfuError('invalid', 'The request is not an object.');
  }
  const type = (raw as { type?: unknown }).type;
  // The type decides every other field: an unknown one is the whole problem.
  if (typeof type !== 'string' || !Object.hasOwn(sfuAnswerSchemas, type)) {
    throw new SfuError(
      'invalid',
      `Unknown request type: type must be one of ${Object.keys(sfuAnswerSchemas).join(', ')}.`,
    );
  }
  throw new SfuError('invalid', `${type}: ${checked.reason}.`);
}
