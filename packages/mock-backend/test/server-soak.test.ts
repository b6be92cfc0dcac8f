// The HTTP server under 50 concurrent clients, killed with SIGKILL in the middle and restarted on
// the same file (issue 12, item 5), in a reduced size; `pnpm soak` at the root runs the full one
// (OTTO_SOAK=full) and writes its figures to a JSON report (OTTO_SOAK_REPORT).
import { writeFileSync } from 'node:fs';
import { nativeModuleReady, nativeModuleWaitMs } from '@otto/vitest-config';
import { beforeAll, describe, expect, it } from 'vitest';
import { runServerSoak } from './soak/server-soak';

const full = process.env.OTTO_SOAK === 'full';

// On a new machine `npm test` builds better-sqlite3 beside the first tests: this file waits for it.
beforeAll(nativeModuleReady, nativeModuleWaitMs);

describe('otto-mock-server under load, killed and restarted', () => {
  it(
    'keeps every acknowledged write, answers no 5xx, and its file passes integrity_check',
    async () => {
      const report = await runServerSoak({ requests: full ? 10_000 : 1_500, clients: 50 });
      if (process.env.OTTO_SOAK_REPORT) writeFileSync(process.env.OTTO_SOAK_REPORT, `${JSON.stringify(report, null, 2)}\n`);
      const { figures, verification } = report;
      console.log(
        `server soak: ${figures.requests} requests from ${figures.clients} clients in ${figures.durationMs} ms; killed at request ${report.killedAtRequest}, ` +
          `${figures.answered} answered, ${JSON.stringify(figures.cutOff)} cut off by the kill, ${figures.noAnswer} without an answer; ${figures.acknowledgedWrites} writes acknowledged, ${verification.customersChecked} customers and ${verification.jobsChecked} jobs checked; ` +
          `statuses ${JSON.stringify(figures.byStatus)}; restart ${report.restartMs} ms`,
      );
      expect(report.killedAtRequest).toBeGreaterThan(0);
      // Every request sent got an answer, except those the kill cut off: at most one per client
      // (each sends one at a time), and the clients carried on after the restart.
      const cutOff = Object.values(figures.cutOff).reduce((a, b) => a + b, 0);
      expect(figures.unanswered).toEqual([]);
      expect(figures.noAnswer).toBe(0);
      expect(figures.answered + cutOff).toBe(figures.requests);
      expect(cutOff).toBeGreaterThan(0);
      expect(cutOff).toBeLessThanOrEqual(figures.clients);
      expect(figures.answered).toBeGreaterThanOrEqual(full ? 9_000 : 1_300);
      expect(figures.serverErrors).toEqual([]);
      expect(figures.doubtfulWrites).toEqual([]);
      expect(figures.unexpected).toEqual([]);
      expect(verification.missing).toEqual([]);
      expect(verification.wrong).toEqual([]);
      expect(verification.customersChecked).toBeGreaterThan(50);
      expect(verification.jobsChecked).toBeGreaterThan(20);
      expect(report.integrityCheck).toEqual(['ok']);
    },
    full ? 900_000 : 120_000,
  );
});
