import Papa from 'papaparse';

/** The largest file Otto reads for an import, in bytes (about 50 000 rows of ordinary width). */
export const maxImportFileBytes = 20 * 1024 * 1024;

/** A file that cannot be imported, with the reason in words. */
export class CsvFileError extends Error {
  override readonly name = 'CsvFileError';
}

/** What a CSV file holds: the header, the data records, and how it was read. */
export interface CsvTable {
  headers: string[];
  /** Each record's cells; a record may have more or fewer cells than there are headers. */
  rows: string[][];
  encoding: 'UTF-8' | 'UTF-16' | 'Windows-1252';
  delimiter: ',' | ';' | '\t';
}

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;

/** Refuses, before reading it, a file that is empty or too large. */
export function checkFileSize(size: number): void {
  if (size === 0) throw new CsvFileError('The file is empty. Choose a CSV file with a header row and at least one row of data.');
  if (size > maxImportFileBytes) {
    throw new CsvFileError(
      `The file is ${megabytes(size)}; Otto imports CSV files up to ${megabytes(maxImportFileBytes)} (about 50 000 rows). Split it into smaller files and import them one after another.`,
    );
  }
}

const signatures: [number[], string][] = [
  [[0x50, 0x4b, 0x03, 0x04], 'a ZIP archive or an Excel workbook (.xlsx). In your spreadsheet, use “Save as” or “Download” and choose CSV'],
  [[0xd0, 0xcf, 0x11, 0xe0], 'an old Excel workbook (.xls). In your spreadsheet, use “Save as” and choose CSV'],
  [[0x25, 0x50, 0x44, 0x46], 'a PDF document'],
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x53, 0x51, 0x4c, 0x69, 0x74, 0x65], 'a database file (perhaps an Otto backup: restore it with “Restore from a backup…”)'],
];

/**
 * Turns a file's bytes into text: UTF-8 with or without a BOM, UTF-16 with a BOM, else
 * Windows-1252 (what Excel on Windows saves as "CSV"), detected by the bytes not being valid UTF-8.
 * Refuses binary files in words.
 */
export function decodeCsvBytes(bytes: Uint8Array): { text: string; encoding: CsvTable['encoding'] } {
  if (bytes.length === 0) throw new CsvFileError('The file is empty. Choose a CSV file with a header row and at least one row of data.');
  for (const [magic, what] of signatures) {
    if (magic.every((b, i) => bytes[i] === b)) throw new CsvFileError(`This is not a CSV file: it is ${what}.`);
  }
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return { text: new TextDecoder(bytes[0] === 0xff ? 'utf-16le' : 'utf-16be').decode(bytes), encoding: 'UTF-16' };
  }
  const head = bytes.subarray(0, 64 * 1024);
  if (head.includes(0)) {
    throw new CsvFileError('This is not a CSV file: it holds binary data, not text. Export your data as CSV (comma- or semicolon-separated values) and choose that file.');
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'UTF-8' };
  } catch {
    return { text: decodeWindows1252(bytes), encoding: 'Windows-1252' };
  }
}

/**
 * Reads CSV text: the delimiter (comma, semicolon or tab) is the one that splits the header into
 * the most columns consistently; quoted fields may hold delimiters, doubled quotes and line breaks.
 * Blank lines are ignored. Refuses HTML and files without data rows in words.
 */
export function parseCsvText(text: string, onProgress?: (fraction: number) => void): Omit<CsvTable, 'encoding'> {
  const start = text.trimStart().slice(0, 200).toLowerCase();
  if (start.startsWith('<!doctype') || start.startsWith('<html') || start.startsWith('<?xml') || /^<(head|body|table|div)[\s>]/.test(start)) {
    throw new CsvFileError('This is not a CSV file: it is a web page or XML (it starts with “<”). Export your data as CSV and choose that file.');
  }
  if (text.trim() === '') throw new CsvFileError('The file holds no text. Choose a CSV file with a header row and at least one row of data.');
  const rows: string[][] = [];
  let delimiter = '';
  let errors = 0;
  const total = text.length;
  let lastReport = 0;
  Papa.parse<string[]>(text, {
    delimitersToGuess: [',', ';', '\t'],
    skipEmptyLines: 'greedy',
    step(result) {
      delimiter ||= result.meta.delimiter;
      if (result.errors.some((e) => e.type === 'Quotes')) errors++;
      rows.push(result.data);
      const at = result.meta.cursor;
      if (onProgress && at - lastReport > total / 50) {
        lastReport = at;
        onProgress(at / total);
      }
    },
  });
  onProgress?.(1);
  if (errors > 0 && rows.length <= 1) throw new CsvFileError('The file could not be read as CSV: a quoted value never ends. Check the quotes in the file.');
  const [header, ...data] = rows;
  if (!header || header.every((h) => h.trim() === '')) throw new CsvFileError('The file has no header row. The first row must name the columns (for example Name, Email, Phone).');
  if (data.length === 0) throw new CsvFileError('The file has a header row but no rows of data.');
  const sep = (delimiter === ';' || delimiter === '\t' ? delimiter : ',') as CsvTable['delimiter'];
  return { headers: header.map((h) => h.trim()), rows: data, delimiter: sep };
}

/** Windows-1252's characters for the bytes 0x80–0x9F (the rest are Latin-1); undefined bytes stay as they are. */
const cp1252High = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/**
 * Decodes Windows-1252 by its table (Node's TextDecoder reads the label as Latin-1, which loses
 * “ ” – € and friends).
 */
export function decodeWindows1252(bytes: Uint8Array): string {
  let text = '';
  const chunk = 8192;
  for (let i = 0; i < bytes.length; i += chunk) {
    const codes = Array.from(bytes.subarray(i, i + chunk), (b) => (b >= 0x80 && b <= 0x9f ? cp1252High.charCodeAt(b - 0x80) : b));
    text += String.fromCharCode(...codes);
  }
  return text;
}
