/**
 * The header that names one write, however often it is sent (an idempotency key, as in the IETF
 * Idempotency-Key draft and Stripe's idempotency keys). A backend runs a write with a new id once
 * and keeps its answer; the same id with the same request (method, path with query, body bytes)
 * gets that answer again and runs nothing; the same id with another request is refused with 422
 * `REQUEST_ID_REUSED` and runs nothing. An id is a token of letters, digits and `_ . : -`, at most
 * 100 characters; any other value is ignored (the write runs as usual). Decision 0121.
 * @example
 * await fetch('/api/customers', { method: 'POST', headers: { [requestIdHeader]: crypto.randomUUID() }, body });
 */
export const requestIdHeader = 'x-otto-request-id';

/**
 * How long, and how many, answers a backend keeps under their request ids (decision 0121): an
 * answer is kept at least `maxAgeMs` after its write committed, unless more than `maxAnswers`
 * answers, or answers of more than `maxBytes` bytes in all, are newer (then the oldest go first).
 * A request id sent again after that runs as a new write.
 * @example
 * const retryUntil = sentAt + requestIdPolicy.maxAgeMs;
 */
export const requestIdPolicy = {
  /** How long an answer is kept: 24 hours. */
  maxAgeMs: 24 * 60 * 60 * 1000,
  /** Most answers kept at once. */
  maxAnswers: 10_000,
  /** Most bytes of answers (bodies and headers) kept at once: 64 MiB. */
  maxBytes: 64 * 1024 * 1024,
} as const;
