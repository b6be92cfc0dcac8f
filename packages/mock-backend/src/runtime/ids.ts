/** Parses a wire id ("42") into a SQLite rowid, or null when it cannot name a row. */
export function parseId(id: string): number | null {
  if (!/^[1-9]\d{0,15}$/.test(id)) return null;
  const n = Number(id);
  return Number.isSafeInteger(n) ? n : null;
}
