import { reportRoutes } from '@otto/api-contract';
import { ApiError } from '../runtime/api-error';
import { defineHandler } from '../runtime/handler';
import { reportSummary, summaryRequest } from './report-summary';

const summary = defineHandler(reportRoutes.summary, async ({ sql, filter, now }) => {
  // filterJson passed its schema (or the router answered 400); only an absent one reaches here without tz.
  if (filter.tz === undefined) {
    throw new ApiError(400, 'INVALID_PARAMS', 'Pass the time zone the months and days are counted in, as filterJson {"tz": "Europe/Berlin"}.', [
      { path: 'tz', message: 'Pass a time zone such as "Europe/Berlin".' },
    ]);
  }
  return { data: await reportSummary(sql, summaryRequest({ ...filter, tz: filter.tz }, now())) };
});

/** The handlers of every report route of the contract. */
export const reportHandlers = [summary];
