// The order browser test files start in: heaviest first, so that the two lanes (vitest.e2e.config.ts)
// end together. Vitest's own order on a fresh clone (no timings cached yet) is the largest file
// first, which started the shared flows (three lines each, over a minute each) last.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each file took, two at a time on a 2-core machine (fresh clone, 2026-11-26); a file not
 * listed counts as `unknownSeconds`. Only the order depends on these: a stale figure costs time, never a result.
 */
const seconds: Record<string, number> = {
  'backend.e2e.test.ts': 95,
  'a11y.e2e.test.ts': 80,
  'shared-flows.firefox.e2e.test.ts': 69,
  'live-tabs.e2e.test.ts': 67,
  'recovery.e2e.test.ts': 65,
  'shared-flows.chromium.e2e.test.ts': 59,
  'import.e2e.test.ts': 54,
  'errands-ui.e2e.test.ts': 51,
  'shared-flows.webkit.e2e.test.ts': 43,
  'kept-screen.e2e.test.ts': 43,
  'offline.e2e.test.ts': 41,
  'updates.e2e.test.ts': 36,
};
const unknownSeconds = 30;

export class HeaviestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const weight = (file: TestSpecification) => seconds[file.moduleId.split('/').pop() ?? ''] ?? unknownSeconds;
    return [...files].sort((a, b) => weight(b) - weight(a));
  }
}
