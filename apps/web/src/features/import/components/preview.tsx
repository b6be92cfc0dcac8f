// The import's preview: the first rows as they will be stored, the problem rows and the duplicates.
import type { Check } from '../import-check';
import { importFields, type ImportKind } from '../import-core';
import { RowList } from './row-list';

/** What the check found, shown before the import. */
export function Preview({ kind, check }: { kind: ImportKind; check: Check }) {
  const columns = importFields[kind].map((f) => ({ key: f.key === 'price' ? 'price_cents' : f.key === 'scheduled_start' ? 'scheduled_start_dt' : f.key === 'scheduled_end' ? 'scheduled_end_dt' : f.key, label: f.label }));
  const shown = columns.filter((c) => check.built.preview.some((r) => r[c.key] !== undefined));
  const show = (key: string, value: unknown) => {
    if (value === undefined || value === null) return '';
    if (key === 'price_cents') return ((value as number) / 100).toFixed(2);
    if (key.endsWith('_dt')) return new Date(value as number).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
    return String(value).trim();
  };
  return (
    <div className="otto-stack">
      <h3 className="import-heading">First rows as they will be stored</h3>
      {/* A few columns fit a phone's width (their text wraps); more scroll sideways inside the region. */}
      <div className={shown.length <= 3 ? 'import-table import-table--few' : 'import-table'} role="region" aria-label="Preview" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">Row</th>
              {shown.map((c) => (
                <th key={c.key} scope="col">
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {check.built.preview.map((row, i) => (
              <tr key={i}>
                <td>{check.built.rowNumbers[i]}</td>
                {shown.map((c) => (
                  <td key={c.key}>{show(c.key, row[c.key])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <RowList
        title={check.problems.length === 0 ? 'No row has a problem.' : `${check.problems.length.toLocaleString('en-US')} ${check.problems.length === 1 ? 'row has a problem and will be skipped' : 'rows have problems and will be skipped'}`}
        rows={check.problems}
        cells={check.cells}
        testId="import-problems"
      />
      {check.duplicates.length > 0 && (
        <RowList title="Duplicates" rows={check.duplicates} cells={check.cells} testId="import-duplicates" />
      )}
    </div>
  );
}
