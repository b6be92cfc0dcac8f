export { limits, apiBasePath, totalCountHeader } from './limits';
export {
  customerSchema,
  customerShapeSchema,
  customerInputSchema,
  type Customer,
  type CustomerInput,
} from './customer';
export { listParamsShapeSchema, listParamsRangeSchema, type ListParams } from './list-params';
export {
  apiErrorSchema,
  apiIssueSchema,
  apiErrorCodes,
  type ApiErrorBody,
  type ApiErrorCode,
  type ApiIssue,
} from './api-error';
export {
  jobSchema,
  jobStatuses,
  jobStatusSchema,
  jobStatusLabels,
  jobTransitions,
  initialJobStatuses,
  canMoveJob,
  jobInputSchema,
  jobPatchSchema,
  jobScheduleSchema,
  jobListParamsSchema,
  jobCountsSchema,
  type Job,
  type JobStatus,
  type JobInput,
  type JobFields,
  type JobPatch,
  type JobListParams,
  type JobCounts,
} from './job';
export {
  routes,
  customerRoutes,
  jobRoutes,
  reportRoutes,
  allRoutes,
  buildPath,
  matchRoute,
  type HttpMethod,
  type RouteDefinition,
  type RouteMatch,
} from './routes';
export {
  reportSummaryParamsSchema,
  reportSummarySchema,
  weekJobSchema,
  calendarMonthSchema,
  calendarDaySchema,
  timeZoneSchema,
  type ReportSummaryParams,
  type ReportSummary,
  type WeekJob,
} from './report';
export {
  isTimeZone,
  zonedParts,
  startOfZonedDay,
  zonedMonthRange,
  formatMonth,
  formatDay,
  parseCalendarDate,
  addMonths,
  type ZonedParts,
} from './time-zone';
export {
  changeEventSchema,
  changeEntities,
  changeKinds,
  changeFeedPath,
  changeFeedEventName,
  type ChangeEvent,
  type ChangeEntity,
  type ChangeKind,
} from './change-event';
export { etagOf, parseIfMatch, ifMatchAllows } from './precondition';
export { createOpenApiDocument, type OpenApiOptions } from './openapi/create-openapi-document';
export type { OpenApiDocument, RouteTable, JsonSchema } from './openapi/openapi-types';
