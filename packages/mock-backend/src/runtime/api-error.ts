import type { ApiErrorCode, ApiIssue } from '@otto/api-contract';

/**
 * The one error class of `@otto/mock-backend`. Handlers throw it; the runtime turns it into a JSON
 * error response `{ code, message, issues? }` with its status.
 * @example
 * throw new ApiError(404, 'NOT_FOUND', 'Customer 7 was not found.');
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly issues?: ApiIssue[],
    options?: { cause?: unknown; allowed?: readonly string[] },
  ) {
    super(message, options);
    this.allowed = options?.allowed;
  }

  /** For a 409: the values that would have been accepted. */
  readonly allowed: readonly string[] | undefined;
}

/** A 400 VALIDATION_FAILED naming one field. */
export function fieldError(path: string, message: string): ApiError {
  return new ApiError(400, 'VALIDATION_FAILED', message, [{ path, message }]);
}

/** Turns zod issues into the contract's `{ path, message }` list. */
export function toApiIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): ApiIssue[] {
  return issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}
