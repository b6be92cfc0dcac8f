import {
  jobStatuses,
  jobStatusLabels,
  limits,
  stripFormulaGuard,
  type CustomerImportRow,
  type JobImportRow,
  type JobStatus,
} from '@otto/api-contract';
import { toCsv } from '../../lib/csv';

/** What is imported: customers or jobs. */
export type ImportKind = 'customers' | 'jobs';

/** The fields a column can be matched to, per kind. */
export const importFields = {
  customers: [
    { key: 'full_name', label: 'Full name', required: true },
    { key: 'email', label: 'Email', required: true },
    { key: 'phone', label: 'Phone', required: true },
  ],
  jobs: [
    { key: 'title', label: 'Title', required: true },
    { key: 'customer_email', label: 'Customer email', required: false },
    { key: 'customer_name', label: 'Customer name', required: false },
    { key: 'status', label: 'Status', required: false },
    { key: 'price', label: 'Price', required: false },
    { key: 'scheduled_start', label: 'Scheduled start', required: false },
    { key: 'scheduled_end', label: 'Scheduled end', required: false },
    { key: 'service_address', label: 'Address', required: false },
    { key: 'assignee', label: 'Assignee', required: false },
    { key: 'description', label: 'Description', required: false },
  ],
} as const;

export type CustomerField = (typeof importFields.customers)[number]['key'];
export type JobField = (typeof importFields.jobs)[number]['key'];
export type ImportField = CustomerField | JobField;

/** For each field, the column index it reads (or null: not imported). */
export type ColumnMapping = Partial<Record<ImportField, number | null>>;

const norm = (header: string) => header.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]/g, '');

/** Header names people use for each field, normalized (lower case, letters and digits only). */
const synonyms: Record<ImportField, string[]> = {
  full_name: ['fullname', 'name', 'customer', 'customername', 'client', 'clientname', 'contact', 'contactname', 'displayname'],
  email: ['email', 'emailaddress', 'mail', 'emailadresse', 'courriel', 'correo'],
  phone: ['phone', 'phonenumber', 'tel', 'telephone', 'telephonenumber', 'mobile', 'mobilephone', 'cell', 'cellphone', 'telefon', 'telefono'],
  title: ['title', 'jobtitle', 'job', 'jobname', 'work', 'service', 'task'],
  customer_email: ['customeremail', 'clientemail', 'email', 'emailaddress', 'customeremailaddress'],
  customer_name: ['customer', 'customername', 'client', 'clientname', 'name', 'fullname'],
  status: ['status', 'state', 'stage', 'jobstatus'],
  price: ['price', 'amount', 'total', 'cost', 'value', 'fee'],
  scheduled_start: ['scheduledstart', 'scheduled', 'start', 'date', 'scheduleddate', 'when', 'startdate', 'starttime', 'appointment'],
  scheduled_end: ['scheduledend', 'end', 'enddate', 'endtime', 'finish'],
  service_address: ['serviceaddress', 'address', 'siteaddress', 'location'],
  assignee: ['assignee', 'assignedto', 'technician', 'worker', 'staff'],
  description: ['description', 'notes', 'note', 'details', 'comments'],
};

/** Matches columns to fields from their headers ("E-mail", "Full name", "Tel", in any case). */
export function matchColumns(kind: ImportKind, headers: readonly string[]): ColumnMapping {
  const normalized = headers.map(norm);
  const mapping: ColumnMapping = {};
  const used = new Set<number>();
  for (const field of importFields[kind]) {
    const names = synonyms[field.key];
    // The earliest synonym wins (an exact "customer_email" over a plain "email"), then the leftmost column.
    let found: number | null = null;
    for (const name of names) {
      const at = normalized.findIndex((h, i) => h === name && !used.has(i));
      if (at >= 0) {
        found = at;
        break;
      }
    }
    if (found !== null) used.add(found);
    mapping[field.key] = found;
  }
  return mapping;
}

/** A row problem found while reading the file (before the API sees the row). */
export interface RowProblem {
  /** The record's number in the file: the header is row 1. */
  rowNumber: number;
  message: string;
}

/** The rows to send, with the file row number of each, and the rows left out with their problems. */
export interface BuiltRows<T> {
  rows: T[];
  rowNumbers: number[];
  problems: RowProblem[];
}

const cellOf = (record: readonly string[], index: number | null | undefined) =>
  index === null || index === undefined ? '' : stripFormulaGuard(record[index] ?? '');

function tooManyColumns(record: readonly string[], headers: readonly string[], rowNumber: number): RowProblem | undefined {
  if (record.length <= headers.length) return undefined;
  const extra = record.slice(headers.length);
  if (extra.every((c) => c.trim() === '')) return undefined;
  return { rowNumber, message: `This row has ${record.length} values but the header names ${headers.length} columns. A value with a comma needs quotes around it.` };
}

/** Customer rows from the file's records. */
export function buildCustomerRows(headers: readonly string[], records: readonly (readonly string[])[], mapping: ColumnMapping): BuiltRows<CustomerImportRow> {
  const out: BuiltRows<CustomerImportRow> = { rows: [], rowNumbers: [], problems: [] };
  records.forEach((record, i) => {
    const rowNumber = i + 2;
    const wide = tooManyColumns(record, headers, rowNumber);
    if (wide) return out.problems.push(wide);
    out.rows.push({ full_name: cellOf(record, mapping.full_name), email: cellOf(record, mapping.email), phone: cellOf(record, mapping.phone) });
    out.rowNumbers.push(rowNumber);
  });
  return out;
}

/** Which way slashed dates read: day first (31/12/2026) or month first (12/31/2026). */
export type DateOrder = 'dmy' | 'mdy';

const isoDate = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;
const partsDate = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{2}|\d{4})(?:[ T,]+(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*(am|pm)?)?$/i;

/**
 * What the date cells of a column say about their order: `dmy` or `mdy` when some cell proves it
 * (a first number over 12, or a second one), `ambiguous` when every slashed date fits both,
 * `none` when the column has no slashed dates (ISO dates need no choice).
 */
export function dateOrderOf(cells: readonly string[]): DateOrder | 'ambiguous' | 'none' | 'conflict' {
  let dayFirst = false;
  let monthFirst = false;
  let slashed = false;
  for (const cell of cells) {
    const m = partsDate.exec(cell.trim());
    if (!m || m[2] === '.') continue; // dotted dates are day first everywhere they are used
    slashed = true;
    const a = Number(m[1]);
    const b = Number(m[3]);
    if (a > 12 && b <= 12) dayFirst = true;
    if (b > 12 && a <= 12) monthFirst = true;
  }
  if (dayFirst && monthFirst) return 'conflict';
  if (dayFirst) return 'dmy';
  if (monthFirst) return 'mdy';
  return slashed ? 'ambiguous' : 'none';
}

/**
 * A date cell as epoch milliseconds in this browser's time zone (Otto's export writes local
 * times, decision 0097): ISO (`2026-12-01`, `2026-12-01 08:00`, with `T`, seconds, `Z` or an
 * offset), `01/12/2026` or `12/01/2026` as `order` says, `1.12.2026`, with an optional time
 * (`8:00`, `8:00 pm`). Null for an empty cell; a string (the problem) when it cannot be read.
 */
export function parseDateCell(cell: string, order: DateOrder | undefined): number | null | string {
  const text = cell.trim();
  if (text === '') return null;
  const iso = isoDate.exec(text);
  if (iso) {
    const [, y, mo, d, h = '0', mi = '0', s = '0', zone] = iso;
    if (zone) {
      const t = Date.parse(text.replace(' ', 'T'));
      return Number.isNaN(t) ? `“${text}” is not a date Otto can read.` : t;
    }
    return localTime(+(y as string), +(mo as string), +(d as string), +h, +mi, +s, text);
  }
  const parts = partsDate.exec(text);
  if (parts) {
    const [, a, sep, b, yy, h = '0', mi = '0', s = '0', ampm] = parts;
    const dayFirst = sep === '.' || order === 'dmy';
    if (sep !== '.' && !order) return `“${text}” could be day first or month first; choose which above.`;
    const year = (yy as string).length === 2 ? 2000 + +(yy as string) : +(yy as string);
    let hour = +h;
    if (ampm) {
      if (hour < 1 || hour > 12) return `“${text}” has an hour that does not fit am or pm.`;
      hour = (hour % 12) + (ampm.toLowerCase() === 'pm' ? 12 : 0);
    }
    return localTime(year, dayFirst ? +(b as string) : +(a as string), dayFirst ? +(a as string) : +(b as string), hour, +mi, +s, text);
  }
  return `“${text}” is not a date Otto can read. Use a form like 2026-12-01 08:00 or 01/12/2026.`;
}

function localTime(y: number, mo: number, d: number, h: number, mi: number, s: number, text: string): number | string {
  const date = new Date(y, mo - 1, d, h, mi, s);
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d || h > 23 || mi > 59 || s > 59) {
    return `“${text}” is not a real date.`;
  }
  return date.getTime();
}

/**
 * A price cell as cents: `12.50`, `12,50`, `€1,234.56`, `1.234,56`, `$ 1 234`. The last `.` or `,`
 * followed by one or two digits is the decimal mark. Undefined for an empty cell; a string (the
 * problem) when it is not an amount.
 */
export function parsePriceCell(cell: string): number | undefined | string {
  const text = cell.trim();
  if (text === '') return undefined;
  const bare = text.replace(/[\s\u00a0'’]|[$€£¥]|[A-Z]{3}$|^[A-Z]{3}/gi, '');
  if (!/^\d[\d.,]*$/.test(bare)) return `“${text}” is not a price. Use a form like 125.00.`;
  const decimal = /[.,](\d{1,2})$/.exec(bare);
  const whole = (decimal ? bare.slice(0, decimal.index) : bare).replace(/[.,]/g, '');
  const cents = Number(whole) * 100 + (decimal ? Number((decimal[1] as string).padEnd(2, '0')) : 0);
  if (!Number.isSafeInteger(cents) || cents > limits.maxPriceCents) return `“${text}” is too large a price.`;
  return cents;
}

const statusWords = new Map<string, JobStatus>(
  jobStatuses.flatMap((s) => [
    [norm(s), s],
    [norm(jobStatusLabels[s]), s],
  ]),
);
statusWords.set('canceled', 'cancelled');
statusWords.set('done', 'completed');
statusWords.set('quoted', 'quote');

const isStatus = (value: string): value is JobStatus => (jobStatuses as readonly string[]).includes(value);

/** A status cell: a status's name or label in any case ("In progress", "in_progress"). */
export function parseStatusCell(cell: string): JobStatus | undefined | string {
  const text = cell.trim();
  if (text === '') return undefined;
  return statusWords.get(norm(text)) ?? `“${text}” is not a status. Use one of: ${jobStatuses.map((s) => jobStatusLabels[s]).join(', ')}.`;
}

/** Job rows from the file's records; cells that cannot be read make the row a problem. */
export function buildJobRows(
  headers: readonly string[],
  records: readonly (readonly string[])[],
  mapping: ColumnMapping,
  order: DateOrder | undefined,
): BuiltRows<JobImportRow> {
  const out: BuiltRows<JobImportRow> = { rows: [], rowNumbers: [], problems: [] };
  records.forEach((record, i) => {
    const rowNumber = i + 2;
    const wide = tooManyColumns(record, headers, rowNumber);
    if (wide) return out.problems.push(wide);
    const cell = (field: JobField) => cellOf(record, mapping[field]);
    const status = parseStatusCell(cell('status'));
    const price = parsePriceCell(cell('price'));
    const start = parseDateCell(cell('scheduled_start'), order);
    const end = parseDateCell(cell('scheduled_end'), order);
    const problem = typeof status === 'string' && !isStatus(status) ? status : [price, start, end].find((v): v is string => typeof v === 'string');
    if (problem) return out.problems.push({ rowNumber, message: problem });
    const row: JobImportRow = { title: cell('title') };
    const optional = (field: JobField, key: keyof JobImportRow) => {
      if (mapping[field] !== null && mapping[field] !== undefined) (row as Record<string, unknown>)[key] = cell(field);
    };
    optional('customer_email', 'customer_email');
    optional('customer_name', 'customer_name');
    optional('service_address', 'service_address');
    optional('assignee', 'assignee');
    optional('description', 'description');
    if (status !== undefined) row.status = status as JobStatus;
    if (price !== undefined) row.price_cents = price as number;
    if (mapping.scheduled_start != null) row.scheduled_start_dt = start as number | null;
    if (mapping.scheduled_end != null) row.scheduled_end_dt = end as number | null;
    out.rows.push(row);
    out.rowNumbers.push(rowNumber);
  });
  return out;
}

/**
 * The rows of the file (by row number) again as CSV, with the header and a column saying why each
 * was skipped; written with Otto's formula guard, like every CSV Otto gives out.
 */
export function skippedRowsCsv(headers: readonly string[], records: readonly (readonly string[])[], skipped: ReadonlyMap<number, string>): string {
  const lines: string[][] = [[...headers, 'Why it was skipped']];
  for (const [rowNumber, why] of [...skipped].sort((a, b) => a[0] - b[0])) {
    const record = records[rowNumber - 2] ?? [];
    lines.push([...record, ...Array<string>(Math.max(0, headers.length - record.length)).fill(''), why]);
  }
  return toCsv(lines);
}
