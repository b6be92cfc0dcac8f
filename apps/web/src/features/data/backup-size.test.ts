import { describe, expect, it } from 'vitest';
import { backupDownloaded, backupSizeLimit, backupTooLarge } from './backup-size';

describe('backupTooLarge', () => {
  it('lets a backup up to the limit through', () => {
    expect(backupSizeLimit).toBe('up to 200 MB');
    expect(backupTooLarge({ name: 'otto.sqlite3', size: 200 * 1024 * 1024 })).toBeUndefined();
  });

  it('refuses a larger file in words, naming it and the limit', () => {
    expect(backupTooLarge({ name: 'huge.sqlite3', size: 300 * 1024 * 1024 })).toBe(
      '“huge.sqlite3” is 300 MB; a backup can be up to 200 MB, so it was not restored. Choose a backup that Otto saved. Nothing was changed.',
    );
  });
});

describe('backupDownloaded', () => {
  it('gives the size, in KB or MB', () => {
    expect(backupDownloaded(540 * 1024)).toBe('Backup downloaded (540 KB).');
    expect(backupDownloaded(126 * 1024 * 1024)).toBe('Backup downloaded (126 MB).');
  });

  it('says when Otto cannot restore the file it just made (a database of about a million customers)', () => {
    expect(backupDownloaded(1266 * 1024 * 1024)).toMatch(/^Backup downloaded \(1266 MB\)\. It is larger than the 200 MB Otto can restore from a backup, so Otto cannot restore this file yet/);
  });
});
