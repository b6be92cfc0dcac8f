/**
 * The header that names one write, however often it is sent. The browser relays set it on every
 * write they serialize; any client may send it. A write whose id already committed is not run
 * again: the answer of its first run comes back (decision 0054). Free of imports: the service
 * worker's script includes it.
 * @example
 * await fetch('/api/customers', { method: 'POST', headers: { [requestIdHeader]: crypto.randomUUID() }, body });
 */
export const requestIdHeader = 'x-otto-request-id';
