// Kept apart from the client (and zod) so the cache settings can use it without loading either.
/** The kinds of failure the client reports (spec section 8). */
export type ApiErrorKind = 'FETCH_ERROR' | 'TIMEOUT_ERROR' | 'PARSING_ERROR' | 'HTTP_ERROR';

/**
 * A failed API call: FETCH_ERROR (no answer), TIMEOUT_ERROR, PARSING_ERROR (an answer that is not
 * what the contract promises), or HTTP_ERROR with the status and its data.
 */
export class ApiClientError extends Error {
  override readonly name = 'ApiClientError';

  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly status?: number,
    readonly data?: unknown,
  ) {
    super(message);
  }

  /** The field issues of a 400 answer (the contract's `issues`), keyed by field name. */
  fieldIssues(): Record<string, string> {
    const list = (this.data as { issues?: unknown } | null)?.issues;
    const issues: Record<string, string> = {};
    for (const issue of Array.isArray(list) ? list : []) {
      const { path, message } = (issue ?? {}) as { path?: unknown; message?: unknown };
      if (typeof path === 'string' && typeof message === 'string') issues[path] ??= message;
    }
    return issues;
  }
}
