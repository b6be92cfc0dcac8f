import type { ConformanceReport, ConformanceRuleResult } from './types';

/**
 * One line per rule: `✓ id  title`, or `✗ id  title` with the reason indented below it.
 * @example
 * runConformance({ fetch, baseUrl, onResult: (r) => console.log(formatRuleResult(r)) });
 */
export function formatRuleResult(result: ConformanceRuleResult): string {
  const mark = result.ok ? (result.skipped ? '-' : '✓') : '✗';
  const lines = [`${mark} ${result.id}  ${result.title}`];
  if (result.detail) lines.push(`    ${result.skipped ? 'skipped: ' : ''}${result.detail}`);
  return lines.join('\n');
}

/**
 * The closing summary of a report: how many rules passed and failed, and which ones failed.
 * @example
 * console.log(formatSummary(report)); // "Otto API contract at http://localhost:8787/api: all 40 rules passed (1.2 s)."
 */
export function formatSummary(report: ConformanceReport): string {
  const seconds = (report.durationMs / 1000).toFixed(1);
  const total = report.rules.length;
  if (report.failed === 0) return `Otto API contract at ${report.baseUrl}: all ${total} rules passed (${seconds} s).`;
  const failedIds = report.rules.filter((r) => !r.ok).map((r) => r.id);
  return `Otto API contract at ${report.baseUrl}: ${report.failed} of ${total} rules failed (${seconds} s): ${failedIds.join(', ')}.`;
}

/**
 * The whole report as the CLI prints it: every rule, then the summary.
 * @example
 * console.log(formatReport(await runConformance({ fetch, baseUrl })));
 */
export function formatReport(report: ConformanceReport): string {
  return [...report.rules.map(formatRuleResult), '', formatSummary(report)].join('\n');
}
