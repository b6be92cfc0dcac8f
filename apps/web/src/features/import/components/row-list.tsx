// A list of file rows (left out, or duplicates) with their cells, the first of them only.
import { maxListed, type ListedRow } from '../import-check';

/** Rows of the file with why they are listed, and the cells they hold. */
export function RowList({ title, rows, cells, testId }: { title: string; rows: ListedRow[]; cells: Map<number, string[]>; testId: string }) {
  return (
    <div data-testid={testId}>
      <h3 className="import-heading">{title}</h3>
      {rows.length > 0 && (
        // It scrolls when long: focusable, so that the keyboard (and a phone's) can scroll it too.
        <ul className="import-rows" tabIndex={0} aria-label={title}>
          {rows.slice(0, maxListed).map((r) => (
            <li key={r.rowNumber}>
              <strong>Row {r.rowNumber}</strong>: {r.message}
              {cells.get(r.rowNumber) && <span className="import-rows__cells"> “{(cells.get(r.rowNumber) ?? []).join(' · ').slice(0, 160)}”</span>}
            </li>
          ))}
          {rows.length > maxListed && <li>…and {(rows.length - maxListed).toLocaleString('en-US')} more (all of them are in the skipped-rows download after the import).</li>}
        </ul>
      )}
    </div>
  );
}
