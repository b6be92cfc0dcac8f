// The order browser test files start in: heaviest first, so that the two lanes (vitest.e2e.config.ts)
// end together. Vitest's own order on a fresh clone (no timings cached yet) is the largest file
// first, which started the shared flows (three lines each, over a minute each) last.
import { existsSync, readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each file took, two at a time on a 2-core machine (a fresh clone, 2026-12-07), for a
 * machine that has no run of its own yet; a file not listed counts as `unknownSeconds`.
 */
const table: Record<string, number> = {
  'backend.e2e.test.ts': 113,
  'shared-flows.webkit.e2e.test.ts': 98,
  'a11y.e2e.test.ts': 98,
  'live-tabs.e2e.test.ts': 90,
  'shared-flows.firefox.e2e.test.ts': 85,
  'errands-ui.e2e.test.ts': 82,
  'recovery.e2e.test.ts': 75,
  'import.e2e.test.ts': 60,
  'sync.e2e.test.ts': 66,
  'kept-screen.e2e.test.ts': 58,
  'offline.e2e.test.ts': 56,
  'updates.e2e.test.ts': 47,
  'errands.e2e.test.ts': 41,
  'nothing-lost.e2e.test.ts': 36,
  'customers.e2e.test.ts': 30,
  'keyboard.e2e.test.ts': 28,
  'schedule.e2e.test.ts': 25,
};
const unknownSeconds = 20;

/**
 * The last run's own figures on this machine, when `npm test` kept them (OTTO_E2E_DURATIONS: a
 * copy of test-results/durations/e2e.json kept outside the checkout, as the native build is):
 * each file's whole time, so the order follows the suite as it is, not as it was when the table
 * was written. Only the order depends on these: a stale figure costs time, never a result.
 */
function lastRun(): Record<string, number> {
  const file = process.env.OTTO_E2E_DURATIONS;
  if (!file || !existsSync(file)) return {};
  try {
    const rows = JSON.parse(readFileSync(file, 'utf8')) as { file: string; ms: number }[];
    return Object.fromEntries(rows.map((row) => [row.file.split('/').pop() ?? '', row.ms / 1000]));
  } catch {
    return {};
  }
}

export class HeaviestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = { ...table, ...lastRun() };
    const weight = (file: TestSpecification) => seconds[file.moduleId.split('/').pop() ?? ''] ?? unknownSeconds;
    return [...files].sort((a, b) => weight(b) - weight(a));
  }
}
