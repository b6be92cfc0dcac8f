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
  routes,
  customerRoutes,
  allRoutes,
  buildPath,
  matchRoute,
  type HttpMethod,
  type RouteDefinition,
  type RouteMatch,
} from './routes';
