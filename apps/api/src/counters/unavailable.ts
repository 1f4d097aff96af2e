import { ApiMsg } from '@survey-bird/contracts';
import { HttpError } from '../http/errors.js';

/** Without its shared counters or leases a limited route cannot tell whether to let a request through: 503, fail closed. */
export async function unavailableOnError<T>(pending: Promise<T>): Promise<T> {
  try {
    return await pending;
  } catch {
    throw new HttpError(503, ApiMsg.serviceUnavailable);
  }
}
