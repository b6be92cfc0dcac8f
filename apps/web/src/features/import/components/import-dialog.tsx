import type { ImportDuplicateChoice, ImportResult } from '@otto/api-contract';
import { Button, Notice, SelectField } from '@otto/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type DragEvent } from 'react';
import { downloadCsv, fileDate } from '../../../lib/download';
import { Modal } from '../../../lib/modal';
import { errorWords, sendImport, undoLastImport } from '../api';
import { checkImport, count, listProblems, undoneWords, type Check } from '../import-check';
import { importFields, matchColumns, type ColumnMapping, type DateOrder, type ImportField, type ImportKind } from '../import-core';
import type { ReadSummary } from '../import-worker-protocol';
import { createImportWorker, type ImportWorker } from '../import-worker-client';
import { ChooseFile } from './choose-file';
import { ImportFinished, useImportUndoToast } from './import-finished';
import { UnmappedColumns } from './unmapped-columns';
import { Preview } from './preview';

const choiceWords: Record<ImportDuplicateChoice, string> = {
  skip: 'Skip them',
  update: 'Update the existing record',
  create: 'Create them anyway',
};

type Stage =
  | { name: 'choose' }
  | { name: 'reading'; fileName: string; fraction: number }
  | { name: 'map'; fileName: string; summary: ReadSummary }
  | { name: 'importing'; fileName: string; summary: ReadSummary; rows: number }
  | { name: 'done'; fileName: string; summary: ReadSummary; result: ImportResult; skipped: Map<number, string> };

/**
 * Import customers or jobs from a CSV file: pick or drop it, match its columns, see the first
 * rows as they will be stored and every problem row, choose what duplicates do, import in one
 * go, download the skipped rows, undo (issue 13, decision 0060).
 */
export function ImportDialog({ initialKind = 'customers', onClose }: { initialKind?: ImportKind; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<ImportKind>(initialKind);
  const [stage, setStage] = useState<Stage>({ name: 'choose' });
  const [error, setError] = useState<string>();
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const [order, setOrder] = useState<DateOrder>();
  const [duplicates, setDuplicates] = useState<ImportDuplicateChoice>('skip');
  const [check, setCheck] = useState<Check>();
  const [checking, setChecking] = useState(false);
  const [undo, setUndo] = useState<{ busy: boolean; message?: string; error?: string }>({ busy: false });
  const [dragging, setDragging] = useState(false);
  const worker = useRef<ImportWorker | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => () => worker.current?.close(), []);

  async function readFile(file: File) {
    setError(undefined);
    setCheck(undefined);
    worker.current?.close();
    const w = createImportWorker();
    worker.current = w;
    setStage({ name: 'reading', fileName: file.name, fraction: 0 });
    try {
      const summary = await w.read(file, (fraction) => setStage({ name: 'reading', fileName: file.name, fraction }));
      setMapping(matchColumns(kind, summary.headers));
      setOrder(undefined);
      setStage({ name: 'map', fileName: file.name, summary });
    } catch (e) {
      setError(`“${file.name}” cannot be imported. ${errorWords(e)}`);
      setStage({ name: 'choose' });
    }
  }

  // Build the rows in the worker and let the import check them (a dry run) whenever the mapping,
  // the date order or the duplicate choice changes.
  const mapStage = stage.name === 'map' ? stage : undefined;
  useEffect(() => {
    if (!mapStage || !worker.current) return;
    const w = worker.current;
    let current = true;
    setChecking(true);
    void (async () => {
      try {
        const next = await checkImport(w, kind, mapping, order, duplicates);
        if (current) {
          setCheck(next);
          setError(undefined);
        }
      } catch (e) {
        if (current) {
          setCheck(undefined);
          setError(errorWords(e));
        }
      } finally {
        if (current) setChecking(false);
      }
    })();
    return () => {
      current = false;
    };
  }, [mapStage, kind, mapping, order, duplicates]);

  async function runImport() {
    if (stage.name !== 'map' || !check) return;
    setError(undefined);
    setStage({ name: 'importing', fileName: stage.fileName, summary: stage.summary, rows: check.built.count });
    try {
      const result = await sendImport(kind, check.built.rowsJson, duplicates, false);
      const skipped = new Map<number, string>();
      for (const p of listProblems(check.built, result)) skipped.set(p.rowNumber, p.message);
      for (const d of result.duplicates) {
        if (d.action === 'skipped') skipped.set(check.built.rowNumbers[d.index] ?? 0, 'A duplicate: skipped, as chosen.');
      }
      await queryClient.invalidateQueries();
      setStage({ name: 'done', fileName: stage.fileName, summary: stage.summary, result, skipped });
    } catch (e) {
      setError(`Nothing was imported. ${errorWords(e)}`);
      setStage({ name: 'map', fileName: stage.fileName, summary: stage.summary });
    }
  }

  async function downloadSkipped() {
    if (stage.name !== 'done' || !worker.current) return;
    const csv = await worker.current.skippedCsv(stage.skipped);
    downloadCsv(csv, `otto-skipped-${kind}-${fileDate()}.csv`);
  }

  async function runUndo() {
    setUndo({ busy: true });
    try {
      const done = await undoLastImport();
      await queryClient.invalidateQueries();
      setUndo({ busy: false, message: `Undone: ${undoneWords(done, kind)}.` });
    } catch (e) {
      setUndo({ busy: false, error: errorWords(e) });
    }
  }

  const showUndoToast = useImportUndoToast(kind);
  /** Done: the dialog closes, and an import that can still be undone says so in a toast with Undo. */
  function finish() {
    if (stage.name === 'done' && stage.result.importId && !undo.message) showUndoToast(stage.result);
    onClose();
  }

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) void readFile(file);
  };

  const busy = stage.name === 'reading' || stage.name === 'importing' || undo.busy;
  const title = kind === 'customers' ? 'Import customers from CSV' : 'Import jobs from CSV';

  return (
    <Modal title={title} onClose={busy ? undefined : onClose} className="import-dialog">
      <div className="otto-stack">
        {stage.name === 'choose' && (
          <ChooseFile
            kind={kind}
            setKind={setKind}
            dragging={dragging}
            setDragging={setDragging}
            onDrop={onDrop}
            fileInput={fileInput}
            readFile={readFile}
          />
        )}

        {error && (
          <Notice tone="error" title={stage.name === 'choose' ? 'This file cannot be imported' : 'Not ready to import'}>
            {error}
          </Notice>
        )}

        {stage.name === 'reading' && (
          <div role="status" className="import-progress">
            <p>Reading “{stage.fileName}”…</p>
            <progress max={1} value={stage.fraction} aria-label="Reading the file" />
          </div>
        )}

        {(stage.name === 'map' || stage.name === 'importing') && (
          <>
            <p className="otto-muted">
              “{stage.fileName}”: {stage.summary.rowCount.toLocaleString('en-US')} {stage.summary.rowCount === 1 ? 'row' : 'rows'}, {stage.summary.encoding},{' '}
              {{ ',': 'comma', ';': 'semicolon', '\t': 'tab' }[stage.summary.delimiter]} separated.
            </p>
            <fieldset className="import-mapping" disabled={stage.name === 'importing'}>
              <legend>Columns</legend>
              {importFields[kind].map((field) => (
                <SelectField
                  key={field.key}
                  label={field.label}
                  value={mapping[field.key] == null ? '' : String(mapping[field.key])}
                  onChange={(e) => setMapping((m) => ({ ...m, [field.key as ImportField]: e.target.value === '' ? null : Number(e.target.value) }))}
                  options={[
                    { value: '', label: field.required ? '— choose a column —' : '— not imported —' },
                    ...stage.summary.headers.map((h, i) => ({ value: String(i), label: h || `Column ${i + 1}` })),
                  ]}
                />
              ))}
            </fieldset>
            <UnmappedColumns headers={stage.summary.headers} mapping={mapping} />
            {kind === 'jobs' && check && (check.built.dateOrder === 'ambiguous' || check.built.dateOrder === 'conflict' || order) && (
              <fieldset className="import-kind" disabled={stage.name === 'importing'}>
                <legend>
                  {check.built.dateOrder === 'conflict'
                    ? 'The dates in this file are written both ways. Which way do most read?'
                    : 'Dates like 03/04/2026 could be read two ways. Which way does this file write them?'}
                </legend>
                <label>
                  <input type="radio" name="date-order" checked={order === 'dmy'} onChange={() => setOrder('dmy')} /> Day first (31/12/2026)
                </label>
                <label>
                  <input type="radio" name="date-order" checked={order === 'mdy'} onChange={() => setOrder('mdy')} /> Month first (12/31/2026)
                </label>
              </fieldset>
            )}
            {checking && !check && <p role="status">Checking {stage.summary.rowCount.toLocaleString('en-US')} rows…</p>}
            {check && <Preview kind={kind} check={check} />}
            {check && check.duplicates.length > 0 && (
              <fieldset className="import-kind" disabled={stage.name === 'importing'}>
                <legend>
                  {check.duplicates.length.toLocaleString('en-US')} {check.duplicates.length === 1 ? 'row is a duplicate' : 'rows are duplicates'}{' '}
                  ({kind === 'customers' ? 'same email as a customer or an earlier row' : 'same customer, title and start as a job or an earlier row'}). What should they do?
                </legend>
                {(['skip', 'update', 'create'] as const).map((c) => (
                  <label key={c}>
                    <input type="radio" name="duplicates" value={c} checked={duplicates === c} onChange={() => setDuplicates(c)} /> {choiceWords[c]}
                  </label>
                ))}
              </fieldset>
            )}
            {check && (
              <p role="status" className="import-summary">
                {checking
                  ? 'Checking…'
                  : `Ready: ${count(check.result.created, kind)} to add, ${check.result.updated.toLocaleString('en-US')} to update, ${(check.result.skipped + check.built.problems.length).toLocaleString('en-US')} to skip.`}
              </p>
            )}
            {stage.name === 'importing' && (
              <div role="status" className="import-progress">
                <p>Importing {count(stage.rows, kind)} in one step: all of them land, or none…</p>
                <progress aria-label="Importing" />
              </div>
            )}
            <div className="otto-dialog__actions">
              <Button onClick={() => setStage({ name: 'choose' })} disabled={busy}>
                Choose another file
              </Button>
              <Button onClick={onClose} disabled={busy}>
                Cancel
              </Button>
              <Button
                variant="primary"
                onClick={() => void runImport()}
                disabled={busy || checking || !check || check.result.created + check.result.updated === 0}
              >
                Import
              </Button>
            </div>
          </>
        )}

        {stage.name === 'done' && (
          <ImportFinished stage={stage} kind={kind} undo={undo} downloadSkipped={downloadSkipped} runUndo={runUndo} onClose={finish} />
        )}

        {stage.name === 'choose' && (
          <div className="otto-dialog__actions">
            <Button onClick={onClose}>Cancel</Button>
          </div>
        )}
      </div>
    </Modal>
  );
}

