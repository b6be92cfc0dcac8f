/// <reference lib="webworker" />
import { CsvFileError, checkFileSize, decodeCsvBytes, parseCsvText, type CsvTable } from './csv-file';
import { buildCustomerRows, buildJobRows, dateOrderOf, skippedRowsCsv } from './import-core';
import type { ImportWorkerAnswer, ImportWorkerRequest } from './import-worker-protocol';

// Reading, parsing and building rows happen here, off the page's thread, so that a file of
// 50 000 rows keeps the page responsive (issue 13). The rows stay here; the page gets summaries.
declare const self: DedicatedWorkerGlobalScope;

let table: CsvTable | undefined;

const answer = (message: ImportWorkerAnswer) =>
  self.postMessage(message, message.type === 'built' ? [message.summary.rowsJson.buffer as ArrayBuffer] : []);

self.onmessage = async (event: MessageEvent<ImportWorkerRequest>) => {
  const request = event.data;
  try {
    if (request.type === 'read') {
      table = undefined;
      checkFileSize(request.file.size);
      const bytes = new Uint8Array(await request.file.arrayBuffer());
      answer({ id: request.id, type: 'progress', fraction: 0.1 });
      const { text, encoding } = decodeCsvBytes(bytes);
      const parsed = parseCsvText(text, (f) => answer({ id: request.id, type: 'progress', fraction: 0.1 + f * 0.9 }));
      table = { ...parsed, encoding };
      answer({
        id: request.id,
        type: 'read',
        summary: { headers: table.headers, sample: table.rows.slice(0, 5), rowCount: table.rows.length, encoding, delimiter: table.delimiter },
      });
      return;
    }
    if (!table) throw new CsvFileError('Choose a file first.');
    if (request.type === 'build') {
      const { headers, rows } = table;
      const built =
        request.kind === 'customers'
          ? buildCustomerRows(headers, rows, request.mapping)
          : buildJobRows(headers, rows, request.mapping, request.order);
      const dateCells: string[] = [];
      if (request.kind === 'jobs') {
        for (const field of ['scheduled_start', 'scheduled_end'] as const) {
          const column = request.mapping[field];
          if (column !== null && column !== undefined) for (const r of rows) dateCells.push(r[column] ?? '');
        }
      }
      const rowsJson = new TextEncoder().encode(JSON.stringify(built.rows));
      answer({
        id: request.id,
        type: 'built',
        summary: {
          rowsJson,
          count: built.rows.length,
          rowNumbers: built.rowNumbers,
          problems: built.problems,
          preview: built.rows.slice(0, 5),
          dateOrder: dateOrderOf(dateCells),
        },
      });
      return;
    }
    if (request.type === 'records') {
      const current = table;
      answer({ id: request.id, type: 'records', records: request.rowNumbers.map((n) => [n, current.rows[n - 2] ?? []]) });
      return;
    }
    answer({ id: request.id, type: 'skipped-csv', csv: skippedRowsCsv(table.headers, table.rows, new Map(request.skipped)) });
  } catch (error) {
    const message =
      error instanceof CsvFileError ? error.message : `The file could not be read: ${error instanceof Error ? error.message : String(error)}`;
    answer({ id: request.id, type: 'error', message });
  }
};
