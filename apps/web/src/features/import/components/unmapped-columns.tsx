import type { ColumnMapping } from '../import-core';
/** The file's columns no field takes: said, so that nothing is left behind without a word. */
export function UnmappedColumns({ headers, mapping }: { headers: string[]; mapping: ColumnMapping }) {
  const used = new Set(Object.values(mapping).filter((i): i is number => typeof i === 'number'));
  const left = headers.map((h, i) => (used.has(i) ? null : h || `Column ${i + 1}`)).filter((h): h is string => h !== null);
  if (left.length === 0) return null;
  return (
    <p className="otto-muted" data-testid="import-unmapped">
      Not imported: {left.map((h) => `“${h}”`).join(', ')} ({left.length === 1 ? 'no field above takes this column' : 'no field above takes these columns'}).
    </p>
  );
}
