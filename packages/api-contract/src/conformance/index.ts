// Entry of `@otto/api-contract/conformance`: the contract test kit any backend can be checked against.
export { runConformance, conformanceRules } from './run-conformance';
export { formatReport, formatRuleResult, formatSummary } from './format-report';
export type {
  ConformanceFetch,
  ConformanceOptions,
  ConformanceReport,
  ConformanceRuleInfo,
  ConformanceRuleResult,
} from './types';
