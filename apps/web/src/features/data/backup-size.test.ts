import { describe, expect, it } from 'vitest';
import { backupDownloaded, backupSizeLimit, backupTooLarge, restoreTimeNote } from './backup-size';

describe('backupTooLarge', () => {
  it('lets a backup up to the limit through', () => {
    expect(backupSizeLimit).toBe('up to 2 GB');
    expect(backupTooLarge({ name: 'otto.sqlite3', size: 2 * 1024 ** 3 })).toBeUndefined();
    expect(backupTooLarge({ name: 'million.sqlite3', size: 1266 * 1024 * 1024 })).toBeUndefined();
  });

  it('refuses a larger file in words, naming it and the limit', () => {
    expect(backupTooLarge({ name: 'huge.sqlite3', size: 3.5 * 1024 ** 3 })).toBe(
      '“huge.sqlite3” is 3.5 GB; a backup can be up to 2 GB, so it was not restored. Choose a backup that Otto saved. Nothing was changed.',
    );
  });
});

describe('backupDownloaded', () => {
  it('gives the size, in KB or MB', () => {
    expect(backupDownloaded(540 * 1024)).toBe('Backup downloaded (540 KB).');
    expect(backupDownloaded(126 * 1024 * 1024)).toBe('Backup downloaded (126 MB).');
  });

  it('gives a million customers’ backup in GB, with nothing more to say: Otto restores it', () => {
    expect(backupDownloaded(1266 * 1024 * 1024)).toBe('Backup downloaded (1.2 GB).');
  });

  it('says when Otto cannot restore the file it just made (over 2 GB)', () => {
    expect(backupDownloaded(2.5 * 1024 ** 3)).toMatch(/^Backup downloaded \(2\.5 GB\)\. It is larger than the 2 GB Otto can restore from a backup, so Otto cannot restore this file yet/);
  });
});

describe('restoreTimeNote', () => {
  it('says nothing for a backup that restores in seconds, and gives a large one its size and time', () => {
    expect(restoreTimeNote(12 * 1024 * 1024)).toBe('');
    expect(restoreTimeNote(126 * 1024 * 1024)).toBe('126 MB: this can take a minute or two. ');
    expect(restoreTimeNote(1266 * 1024 * 1024)).toBe('1.2 GB: this can take a minute or two. ');
  });
});
