import type { RowProblem, ColumnMapping, DateOrder, ImportKind } from './import-core';
import type { CsvTable } from './csv-file';

/** Asks the import worker for something; each request has an id its answer carries. */
export type ImportWorkerRequest =
  | { id: number; type: 'read'; file: Blob }
  | { id: number; type: 'build'; kind: ImportKind; mapping: ColumnMapping; order: DateOrder | undefined }
  | { id: number; type: 'records'; rowNumbers: number[] }
  | { id: number; type: 'skipped-csv'; skipped: [number, string][] };

/** What the file held, without its rows (they stay in the worker). */
export interface ReadSummary {
  headers: string[];
  /** The first records, to show next to the column choices. */
  sample: string[][];
  rowCount: number;
  encoding: CsvTable['encoding'];
  delimiter: CsvTable['delimiter'];
}

/** The rows to import, built in the worker: the JSON of the rows array, ready to send. */
export interface BuildSummary {
  /** The rows array as UTF-8 JSON, encoded here so that the page never encodes megabytes of text. */
  rowsJson: Uint8Array;
  count: number;
  /** The file row number of each row sent, by its index in the request. */
  rowNumbers: number[];
  problems: RowProblem[];
  /** The first rows as they will be sent (and stored, once trimmed). */
  preview: Record<string, unknown>[];
  /** For jobs: what the date cells say about day-first or month-first. */
  dateOrder: 'dmy' | 'mdy' | 'ambiguous' | 'none' | 'conflict';
}

export type ImportWorkerAnswer =
  | { id: number; type: 'progress'; fraction: number }
  | { id: number; type: 'error'; message: string }
  | { id: number; type: 'read'; summary: ReadSummary }
  | { id: number; type: 'built'; summary: BuildSummary }
  | { id: number; type: 'records'; records: [number, string[]][] }
  | { id: number; type: 'skipped-csv'; csv: string };
