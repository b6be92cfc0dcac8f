import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { postgresDialect } from '../postgres/postgres-dialect';
import { sqliteDialect } from './sqlite-dialect';

const srcDir = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('the dialect object (decision 0122)', () => {
  it('is asked, never compared: no source file branches on the name of a dialect', () => {
    const comparisons = sourceFiles(srcDir).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/dialect(\.name)?\s*[!=]==?|[!=]==?\s*\S*dialect\b/.test(line) ? [`${relative(srcDir, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(comparisons).toEqual([]);
  });

  it('has the same parts on both databases, each named for its database', () => {
    expect(Object.keys(postgresDialect).sort()).toEqual(Object.keys(sqliteDialect).sort());
    expect([sqliteDialect.name, postgresDialect.name]).toEqual(['sqlite', 'postgres']);
  });

  it('locks rows read before a write only where units of work run side by side', () => {
    expect(sqliteDialect.lockRows('j')).toBe('');
    expect(postgresDialect.lockRows('j')).toBe(' FOR UPDATE OF j');
    expect(postgresDialect.lockRows()).toBe(' FOR UPDATE');
    expect(sqliteDialect.keyLock).toBeNull();
    expect(postgresDialect.keyLock).toMatch(/pg_advisory_xact_lock/);
  });
});
