// The import dialog's first step: what the file holds, and the file, dropped or chosen.
import { Button } from '@otto/ui';
import type { DragEvent, RefObject } from 'react';
import { FileInput } from '../../../lib/file-input';
import type { ImportKind } from '../import-core';

/** The kind of records to import and a drop zone with a file chooser; the dialog keeps the state. */
export function ChooseFile({
  kind,
  setKind,
  dragging,
  setDragging,
  onDrop,
  fileInput,
  readFile,
}: {
  kind: ImportKind;
  setKind: (kind: ImportKind) => void;
  dragging: boolean;
  setDragging: (dragging: boolean) => void;
  onDrop: (event: DragEvent) => void;
  fileInput: RefObject<HTMLInputElement | null>;
  readFile: (file: File) => Promise<void>;
}) {
  return (
    <>
      <fieldset className="import-kind">
        <legend>What the file holds</legend>
        {(['customers', 'jobs'] as const).map((k) => (
          <label key={k}>
            <input type="radio" name="import-kind" value={k} checked={kind === k} onChange={() => setKind(k)} /> {k === 'customers' ? 'Customers' : 'Jobs'}
          </label>
        ))}
      </fieldset>
      <div
        className={`import-drop${dragging ? ' import-drop--over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="import-drop"
      >
        <p>Drop a CSV file here, or</p>
        <Button variant="primary" onClick={() => fileInput.current?.click()}>
          Choose a CSV file…
        </Button>
        <p className="otto-muted">
          Comma, semicolon or tab separated; UTF-8 or Windows-1252. The first row names the columns
          {kind === 'customers' ? ' (for example Name, Email, Phone).' : ' (Title, Customer email or name, Status, Price, Scheduled).'}
        </p>
      </div>
      <FileInput
        ref={fileInput}
        accept=".csv,.tsv,.txt,text/csv,text/plain"
        aria-label="CSV file to import"
        hidden
        onFile={(file) => void readFile(file)}
      />
    </>
  );
}
