import { z } from 'zod';

/**
 * Machine-readable codes of the JSON errors an Otto backend answers with.
 * @example
 * if (apiErrorCodes.includes(body.code as ApiErrorCode)) showError(body.message);
 */
export const apiErrorCodes = [
  'NOT_FOUND',
  'INVALID_JSON',
  'VALIDATION_FAILED',
  'INVALID_PARAMS',
  'PAYLOAD_TOO_LARGE',
  'CONFLICT',
  'PRECONDITION_FAILED',
  // A request id sent again with another request (decision 0121).
  'REQUEST_ID_REUSED',
  'STORAGE_FULL',
  'SERVICE_UNAVAILABLE',
  'TIMEOUT',
  'INTERNAL',
  // Refusals of the HTTP server before the API sees the request (decision 0050).
  'UNAUTHORIZED',
  'ORIGIN_NOT_ALLOWED',
  'REQUEST_TIMEOUT',
  'MISDIRECTED_REQUEST',
  'UNSUPPORTED_MEDIA_TYPE',
  'HEADERS_TOO_LARGE',
  'MALFORMED_REQUEST',
  'METHOD_NOT_ALLOWED',
  // A device on an older Otto than its team server's data (decision 0168): update, then sync.
  'UPDATE_REQUIRED',
] as const;
/**
 * One of `apiErrorCodes`.
 * @example
 * const code: ApiErrorCode = 'NOT_FOUND';
 */
export type ApiErrorCode = (typeof apiErrorCodes)[number];

/**
 * One problem with one field of a request, as `{ path: 'email', message: '…' }`.
 * @example
 * const issue = apiIssueSchema.parse({ path: 'email', message: 'Enter an email address like name@example.com, or leave it empty.' });
 */
export const apiIssueSchema = z.object({
  path: z.string(),
  message: z.string(),
});
/**
 * One problem with one field; `path` is the field name (`scheduled_end_dt`).
 * @example
 * const byField = Object.fromEntries(issues.map((i: ApiIssue) => [i.path, i.message]));
 */
export type ApiIssue = z.infer<typeof apiIssueSchema>;

/**
 * The JSON body of every error that is not the spec's plain-text `Not found`.
 * @example
 * const err = apiErrorSchema.parse(await res.json()); // { code: 'NOT_FOUND', message: 'Customer 7 was not found.' }
 */
export const apiErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  issues: z.array(apiIssueSchema).optional(),
  /** For a 409: the values that would have been accepted (a job's allowed next statuses). */
  allowed: z.array(z.string()).optional(),
});
/**
 * The JSON body of an error answer.
 * @example
 * const body: ApiErrorBody = { code: 'CONFLICT', message: 'A paid job is final.', allowed: [] };
 */
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
