// Entry of `@otto/sqlite-store/node`: the same store on a SQLite file, through better-sqlite3.
export { createNodeSqliteStore, openNodeSqliteStore, type NodeSqliteStoreOptions } from './node-sqlite-store';
