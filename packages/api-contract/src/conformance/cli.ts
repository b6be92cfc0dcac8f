// otto-contract-test: runs the conformance kit against a backend over HTTP and prints the report.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { ConformanceRule } from './rule-context';
import { formatRuleResult, formatSummary } from './format-report';
import { conformanceRules, runConformance } from './run-conformance';

const usage = `Usage: otto-contract-test --base-url <url> [options]

Checks a running Otto backend against the API contract, over HTTP. It creates its own customers
and jobs (each name carries a word unique to the run), so do not point it at data you cannot
add test records to.

Options:
  --base-url <url>   where the API answers, including /api (e.g. http://localhost:8787/api)
  --only <prefix>    run only the rules whose id starts with <prefix> (repeatable)
  --rules <file>     a JavaScript module exporting rules of your own (an array of
                     { id, title, run(ctx) }), run after the kit's (repeatable)
  --timeout <ms>     time limit of one request (default 10000)
  --token <token>    bearer token sent with every request (Authorization: Bearer <token>), for a
                     server that wants one; OTTO_API_TOKEN in the environment does the same
  --json             print the report as JSON instead of text
  --list             list the rules and exit
  -h, --help         show this help`;

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        'base-url': { type: 'string' },
        only: { type: 'string', multiple: true },
        rules: { type: 'string', multiple: true },
        timeout: { type: 'string' },
        token: { type: 'string' },
        json: { type: 'boolean', default: false },
        list: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (values.help) {
    console.log(usage);
    return 0;
  }
  if (values.list) {
    for (const rule of conformanceRules) console.log(`${rule.id}  ${rule.title}`);
    return 0;
  }
  const baseUrl = values['base-url'];
  if (!baseUrl || !URL.canParse(baseUrl)) {
    console.error(`${baseUrl ? `Not a URL: ${baseUrl}` : 'Missing --base-url.'}\n\n${usage}`);
    return 2;
  }
  const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeoutMs !== undefined && !(timeoutMs > 0)) {
    console.error(`--timeout must be a positive number of milliseconds, got ${values.timeout}.`);
    return 2;
  }
  const token = values.token ?? (process.env.OTTO_API_TOKEN?.trim() || undefined);
  if (!values.json) console.log(`Checking the Otto API contract at ${baseUrl}\n`);
  let rules: ConformanceRule[];
  try {
    rules = await loadRules(values.rules ?? []);
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const report = await runConformance({
    fetch: (request) => fetch(request),
    baseUrl,
    ...(rules.length ? { rules } : {}),
    ...(values.only ? { only: values.only } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(token ? { token } : {}),
    ...(values.json ? {} : { onResult: (result) => console.log(formatRuleResult(result)) }),
  });
  if (values.json) console.log(JSON.stringify(report, null, 2));
  else console.log(`\n${formatSummary(report)}`);
  if (report.rules.length === 0) {
    console.error('No rule matched --only.');
    return 2;
  }
  return report.failed === 0 ? 0 : 1;
}

/** The rules the modules export (arrays of rules, or rules), each module at least one. */
async function loadRules(files: readonly string[]): Promise<ConformanceRule[]> {
  const found: ConformanceRule[] = [];
  const isRule = (value: unknown): value is ConformanceRule =>
    typeof value === 'object' && value !== null && typeof (value as ConformanceRule).id === 'string' && typeof (value as ConformanceRule).run === 'function';
  for (const file of files) {
    const module = (await import(pathToFileURL(resolve(file)).href)) as Record<string, unknown>;
    const rules = [...new Set(Object.values(module).flatMap((value) => (Array.isArray(value) ? value : [value])).filter(isRule))];
    if (rules.length === 0) throw new Error(`${file} exports no rule: export an array of { id, title, run(ctx) }.`);
    found.push(...rules);
  }
  return found;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 2;
  },
);
