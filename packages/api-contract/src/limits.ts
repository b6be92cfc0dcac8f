/**
 * Business constants shared by every client and backend of the Otto API.
 * @example
 * const pageSize = limits.defaultPageSize; // 10
 */
export const limits = {
  /** Page size when a list request names none (spec section 9). */
  defaultPageSize: 10,
  /** Largest page a list request may ask for. */
  maxPageSize: 1000,
  /** Longest search text accepted, in characters. */
  maxQueryTextLength: 200,
  /** Longest full name, in characters. */
  maxFullNameLength: 200,
  /** Longest email address, in characters (RFC 5321). */
  maxEmailLength: 254,
  /** Longest phone number, in characters. */
  maxPhoneLength: 40,
  /** Longest job title, in characters. */
  maxJobTitleLength: 120,
  /** Longest job description, in characters. */
  maxJobDescriptionLength: 4000,
  /** Longest service address, in characters. */
  maxAddressLength: 300,
  /** Longest assignee name, in characters. */
  maxAssigneeLength: 120,
  /** Largest price, in cents (ten million in the currency's main unit). */
  maxPriceCents: 1_000_000_000,
  /** Largest request body accepted, in bytes (an import's excepted: `maxImportBodyBytes`). */
  maxBodyBytes: 64 * 1024,
  /** Most rows one import takes (POST /customers/import, /jobs/import). */
  maxImportRows: 50_000,
  /** Largest body of an import, in bytes: 50 000 rows of long names and addresses. */
  maxImportBodyBytes: 16 * 1024 * 1024,
  /** How long a relay waits for a `longRunning` call (an import, its undo), in milliseconds. */
  longRequestTimeoutMs: 120_000,
  /** Most months one summary report covers (its from–to range). */
  maxReportMonths: 36,
  /** Most customers a summary lists among those who owe the most. */
  maxTopOwing: 20,
  /** Most jobs a summary lists on one day of the week (the day's total is always given). */
  maxWeekJobsPerDay: 20,
  /** Longest range one schedule request covers, in days (six weeks: a month view). */
  maxScheduleDays: 42,
  /** Most jobs per person per day a schedule request may ask for (`perCell`). */
  maxSchedulePerCell: 50,
  /** Jobs per person per day a schedule answers when the request names no `perCell`. */
  defaultSchedulePerCell: 6,
  /** Most jobs one schedule request answers (earliest first; `truncated` says when more were left out). */
  maxScheduleJobs: 1000,
  /** Most people one schedule answer names as lanes (`assignees`). */
  maxScheduleAssignees: 100,
  /** Longest notes kept about one customer. */
  maxCustomerNotesLength: 10_000,
  /** Most service addresses of one customer. */
  maxServiceAddresses: 20,
  /** Most lines on one invoice. */
  maxInvoiceLines: 100,
  /** Most jobs one invoice bills. */
  maxInvoiceJobs: 50,
  /** Longest description of an invoice line. */
  maxInvoiceLineLength: 300,
  /** Longest note on an invoice or a payment. */
  maxInvoiceNoteLength: 2000,
  /** Largest quantity on one invoice line. */
  maxInvoiceQuantity: 100_000,
  /** Largest unit price on one invoice line, in cents (as a job's price). */
  maxUnitPriceCents: 1_000_000_000,
  /** Largest payment, in cents: more than any invoice can total. */
  maxPaymentCents: 1_000_000_000_000_000,
} as const;

/**
 * Base path of every API call (spec section 7).
 * @example
 * fetch(`${apiBasePath}/customers`); // GET /api/customers
 */
export const apiBasePath = '/api';

/**
 * Response header carrying the total number of rows a list request matched.
 * @example
 * const total = Number(res.headers.get(totalCountHeader));
 */
export const totalCountHeader = 'X-Total-Count';
