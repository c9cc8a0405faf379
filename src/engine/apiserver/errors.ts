/**
 * Errors that are not Statuses reach the client as kube-apiserver's ErrorToAPIStatus makes
 * them: code 500, no reason, the error's text as the message.
 */
import { isStatusError, StatusError } from '../api/status';

export function toStatusError(err: unknown): StatusError {
  if (isStatusError(err)) return err;
  return new StatusError({ code: 500, reason: '', message: err instanceof Error ? err.message : String(err) });
}
