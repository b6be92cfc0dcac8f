/** Hands the browser a file to save, as if the user clicked a download link. */
export function downloadFile(contents: BlobPart, filename: string, type: string): void {
  const url = URL.createObjectURL(new Blob([contents], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Downloads CSV text as UTF-8 with a byte-order mark: without it Excel on Windows reads the file as
 * the system's code page and garbles every name with an accent ("SiobhÃ¡n"). Otto's import reads
 * either.
 */
export function downloadCsv(csv: string, filename: string): void {
  downloadFile(`${csvByteOrderMark}${csv}`, filename, 'text/csv;charset=utf-8');
}

/** U+FEFF, which UTF-8 writes as the bytes EF BB BF. */
const csvByteOrderMark = '\uFEFF';

/** "2026-11-22" for file names, in local time. */
export function fileDate(date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
