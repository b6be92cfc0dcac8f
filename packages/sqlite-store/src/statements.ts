// Runs SQL on one connection: the cache of prepared statements, and the error mapping around each statement.
import { StoreError, codeForSqliteError, runSql } from './store-error';
import { vfsQuotaErrors } from './sqlite-module';
import type { OoDb, OoStmt } from './sqlite-connection';
import type { BindParams } from './types';

const maxCachedStatements = 200;

/** Runs `fn` (the statement `sql`), with SQLite's failures as StoreError; a quota refusal of OPFS as STORAGE_FULL. */
export function wrap<T>(sql: string, fn: () => T): T {
  const quotaRefusals = vfsQuotaErrors.count;
  try {
    return runSql(sql, fn, codeForSqliteError);
  } catch (error) {
    // OPFS refused a write for want of quota during this statement: the VFS reported a plain
    // I/O error, but what the caller must hear is that the storage is full.
    if (error instanceof StoreError && error.code !== 'STORAGE_FULL' && vfsQuotaErrors.count !== quotaRefusals) {
      throw new StoreError('STORAGE_FULL', `The browser's storage quota is used up, so the write was refused: ${error.message}`, { cause: error });
    }
    throw error;
  }
}

/**
 * The prepared statements of the connection `requireDb` gives, kept for reuse (at most
 * `maxCachedStatements`); `finalizeStatements` before that connection closes.
 */
export function createStatementCache(requireDb: () => OoDb) {
  const statements = new Map<string, OoStmt>();

  function statement(sql: string): OoStmt {
    const conn = requireDb();
    let stmt = statements.get(sql);
    if (!stmt) {
      if (statements.size >= maxCachedStatements) finalizeStatements();
      stmt = conn.prepare(sql);
      statements.set(sql, stmt);
    }
    return stmt;
  }

  function finalizeStatements(): void {
    for (const stmt of statements.values()) stmt.finalize();
    statements.clear();
  }

  function withStatement<T>(sql: string, params: BindParams | undefined, fn: (stmt: OoStmt) => T): T {
    return wrap(sql, () => {
      const stmt = statement(sql);
      try {
        if (params && (Array.isArray(params) ? params.length > 0 : Object.keys(params).length > 0)) {
          stmt.bind(params as never);
        }
        return fn(stmt);
      } finally {
        stmt.reset(true);
      }
    });
  }

  return { finalizeStatements, withStatement };
}
