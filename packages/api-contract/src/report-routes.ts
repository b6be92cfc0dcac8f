// The report calls of the route table.
import { reportSummaryParamsSchema, reportSummarySchema } from './report';
import type { RouteDefinition } from './route-definition';

/**
 * Reports over the whole business, computed by the backend (decision 0080).
 * @example
 * const { method, path } = reportRoutes.summary; // 'GET', '/reports/summary'
 */
export const reportRoutes = {
  summary: {
    method: 'GET',
    path: '/reports/summary',
    summary:
      "The Overview's figures: this week's scheduled and in-progress jobs by day, money owed and who owes most, paid per month against a year earlier, jobs by status, new customers per month. Months and days are those of the time zone tz.",
    filterJson: reportSummaryParamsSchema,
    invalidFilter: 'error',
    errors: { 400: 'filterJson is missing, has no known time zone tz, or a month, day or range that is not valid.' },
    response: reportSummarySchema,
  },
} as const satisfies Record<string, RouteDefinition>;
