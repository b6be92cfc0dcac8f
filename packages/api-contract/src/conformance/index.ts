// Entry of `@otto/api-contract/conformance`: the contract test kit any backend can be checked against.
export { runConformance, conformanceRules } from './run-conformance';
export { formatReport, formatRuleResult, formatSummary } from './format-report';
export { check } from './kit-client';
export type { CallOptions, KitClient, Reply } from './kit-client';
export type { ConformanceRule, RuleContext } from './rule-context';
export type {
  ConformanceFetch,
  ConformanceOptions,
  ConformanceReport,
  ConformanceRuleInfo,
  ConformanceRuleResult,
} from './types';
