import { beforeEach, describe, expect, it } from 'vitest';
import { backupNudgeAfterMs, dismissBackupNudge, recordBackup, recordChange, shouldNudgeBackup } from './storage-health';

const day = 86_400_000;
const t0 = Date.UTC(2026, 10, 1);

beforeEach(() => localStorage.clear());

describe('the weekly backup suggestion', () => {
  it('says nothing before any change', () => {
    expect(shouldNudgeBackup(t0 + 30 * day)).toBe(false);
  });

  it('suggests a backup when changes went a week without one, and not before', () => {
    recordChange(t0);
    recordChange(t0 + 2 * day);
    expect(shouldNudgeBackup(t0 + backupNudgeAfterMs)).toBe(false);
    expect(shouldNudgeBackup(t0 + backupNudgeAfterMs + 1)).toBe(true);
  });

  it('is quiet after a backup newer than the last change, and back a week after the next change', () => {
    recordChange(t0);
    recordBackup(t0 + day);
    expect(shouldNudgeBackup(t0 + 30 * day)).toBe(false);
    recordChange(t0 + 2 * day);
    expect(shouldNudgeBackup(t0 + day + backupNudgeAfterMs - 1)).toBe(false);
    expect(shouldNudgeBackup(t0 + day + backupNudgeAfterMs + 1)).toBe(true);
  });

  it('stays hidden for a week once dismissed', () => {
    recordChange(t0);
    dismissBackupNudge(t0 + 8 * day);
    expect(shouldNudgeBackup(t0 + 9 * day)).toBe(false);
    expect(shouldNudgeBackup(t0 + 8 * day + backupNudgeAfterMs + 1)).toBe(true);
  });
});
