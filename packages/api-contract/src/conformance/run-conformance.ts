import { concurrencyRules } from './concurrency-rules';
import { customerRules } from './customer-rules';
import { errandRules } from './errand-rules';
import { errorRules, SkipRule } from './error-rules';
import { importRules } from './import-rules';
import { invoiceRules } from './invoice-rules';
import { jobRules } from './job-rules';
import { createKitClient, RuleFailure } from './kit-client';
import { listRules, searchRules } from './list-rules';
import { reportRules } from './report-rules';
import { requestIdRules } from './request-id-rules';
import { syncRules } from './sync-rules';
import { createRuleContext, type ConformanceRule } from './rule-context';
import type { ConformanceOptions, ConformanceReport, ConformanceRuleInfo, ConformanceRuleResult } from './types';

const allRules: readonly ConformanceRule[] = [...customerRules, ...listRules, ...searchRules, ...errorRules, ...jobRules, ...importRules, ...concurrencyRules, ...requestIdRules, ...reportRules, ...errandRules, ...invoiceRules, ...syncRules];

/**
 * Every rule of the kit, in the order it runs.
 * @example
 * for (const rule of conformanceRules) console.log(rule.id, rule.title);
 */
export const conformanceRules: readonly ConformanceRuleInfo[] = allRules.map(({ id, title }) => ({ id, title }));

/**
 * Checks a running backend against the Otto API contract: the spec's customer calls and the
 * decisions on errors, search and jobs. It only talks HTTP (through `fetch`) and creates its own
 * data, each name carrying a word unique to the run, so it works against a backend that already
 * holds data. It never throws for a broken backend: every rule reports `ok` and a `detail`.
 * @example
 * import { runConformance } from '@otto/api-contract/conformance';
 * const report = await runConformance({ fetch, baseUrl: 'http://localhost:8787/api' });
 * console.log(`${report.passed} rules passed, ${report.failed} failed`);
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const started = Date.now();
  const api = createKitClient(options.fetch, options.baseUrl, options.timeoutMs ?? 10_000, options.token);
  const ctx = createRuleContext(api);
  const only = options.only;
  const every = [...allRules, ...(options.rules ?? [])];
  const ids = new Set<string>();
  for (const rule of every) {
    if (ids.has(rule.id)) throw new TypeError(`Two rules have the id “${rule.id}”: give each rule its own.`);
    ids.add(rule.id);
  }
  const selected = only?.length ? every.filter((rule) => only.some((prefix) => rule.id.startsWith(prefix))) : every;
  const rules: ConformanceRuleResult[] = [];
  for (const rule of selected) {
    const ruleStarted = Date.now();
    let result: Omit<ConformanceRuleResult, 'durationMs'>;
    try {
      await rule.run(ctx);
      result = { id: rule.id, title: rule.title, ok: true };
    } catch (error) {
      if (error instanceof SkipRule) result = { id: rule.id, title: rule.title, ok: true, skipped: true, detail: error.message };
      else result = { id: rule.id, title: rule.title, ok: false, detail: describeError(error) };
    }
    const done = { ...result, durationMs: Date.now() - ruleStarted };
    rules.push(done);
    options.onResult?.(done);
  }
  const failed = rules.filter((r) => !r.ok).length;
  return { baseUrl: options.baseUrl, rules, passed: rules.length - failed, failed, durationMs: Date.now() - started };
}

function describeError(error: unknown): string {
  // By name too: a rules module may bring its own copy of this package.
  if (error instanceof RuleFailure || (error instanceof Error && error.name === 'RuleFailure')) return error.message;
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return `the rule stopped on an unexpected error: ${message}`;
}
