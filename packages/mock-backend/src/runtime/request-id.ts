/**
 * The header that names one write, however often it is sent. The browser relays set it on every
 * write they serialize; any client may send it. A write whose id already committed is not run
 * again: the answer of its first run comes back (decision 0054), when it is the same request
 * (method, path, body); the same id with another request is refused, 422 `REQUEST_ID_REUSED`
 * (decision 0121). The same name as `requestIdHeader` of @otto/api-contract; free of imports, as
 * the service worker's script includes it.
 * @example
 * await fetch('/api/customers', { method: 'POST', headers: { [requestIdHeader]: crypto.randomUUID() }, body });
 */
export const requestIdHeader = 'x-otto-request-id';
