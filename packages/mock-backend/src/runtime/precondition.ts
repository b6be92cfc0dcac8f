import { ifMatchAllows } from '@otto/api-contract';
import { ApiError } from './api-error';

/**
 * Throws a 412 `PRECONDITION_FAILED` when the request's `If-Match` names a version other than the
 * record's current `modified_dt`; nothing is saved then.
 */
export function checkPrecondition(ifMatch: number[] | '*' | undefined, current: number, what: string): void {
  if (ifMatchAllows(ifMatch, current)) return;
  throw new ApiError(
    412,
    'PRECONDITION_FAILED',
    `${what} was changed since you loaded it (If-Match does not name its current version), so nothing was saved. Load it again, or send the update without If-Match to save over it.`,
  );
}
