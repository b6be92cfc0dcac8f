import { z } from 'zod';

/** Machine-readable codes of the JSON errors an Otto backend answers with. */
export const apiErrorCodes = [
  'NOT_FOUND',
  'INVALID_JSON',
  'VALIDATION_FAILED',
  'INVALID_PARAMS',
  'PAYLOAD_TOO_LARGE',
  'CONFLICT',
  'STORAGE_FULL',
  'SERVICE_UNAVAILABLE',
  'TIMEOUT',
  'INTERNAL',
] as const;
export type ApiErrorCode = (typeof apiErrorCodes)[number];

/** One problem with one field of a request, as `{ path: 'email', message: '…' }`. */
export const apiIssueSchema = z.object({
  path: z.string(),
  message: z.string(),
});
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
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
