/**
 * The ETag of a customer or job: its `modified_dt` in double quotes. Servers send it on every answer
 * that holds one record; clients send it back in `If-Match` to save only over the version they
 * loaded (a stale one is answered 412 `PRECONDITION_FAILED`, and nothing is saved). A backend makes
 * `modified_dt` in its database, greater with every write of the record, never from a clock alone:
 * two writes in one millisecond, or through servers whose clocks differ, get different versions
 * (decision 0120).
 * @example
 * etagOf(1767225600000); // '"1767225600000"'
 * fetch('/api/customers/7', { method: 'PUT', headers: { 'if-match': etagOf(customer.modified_dt) }, body });
 */
export function etagOf(modifiedDt: number): string {
  return `"${modifiedDt}"`;
}

/**
 * Reads an `If-Match` header: `undefined` when absent (the write is unconditional), `'*'` for any
 * version, or the `modified_dt` values it names. Weak tags (`W/"…"`) and values that are not an
 * Otto ETag name no version, so they never match.
 * @example
 * parseIfMatch('"1767225600000"'); // [1767225600000]
 * parseIfMatch(null); // undefined
 */
export function parseIfMatch(header: string | null): number[] | '*' | undefined {
  if (header === null) return undefined;
  if (header.trim() === '*') return '*';
  const versions: number[] = [];
  for (const part of header.split(',')) {
    const match = /^\s*"(\d{1,16})"\s*$/.exec(part);
    if (match) versions.push(Number(match[1]));
  }
  return versions;
}

/**
 * Whether a record whose `modified_dt` is `current` satisfies a parsed `If-Match`.
 * @example
 * ifMatchAllows(parseIfMatch('"5"'), 5); // true
 * ifMatchAllows(parseIfMatch('"4"'), 5); // false
 */
export function ifMatchAllows(ifMatch: number[] | '*' | undefined, current: number): boolean {
  return ifMatch === undefined || ifMatch === '*' || ifMatch.includes(current);
}
