// Your own routes next to Otto's: an extension brings routes (answered by the same pipeline as
// Otto's: zod checks, a transaction per write, the JSON error shape, the change feed) and
// migrations of its own, versioned apart from Otto's schema (PRAGMA user_version stays Otto's).
import { matchRoute, routes, type HttpMethod, type RouteDefinition, type RouteTable } from '@otto/api-contract';
import { StoreError, type Database, type Migration } from '@otto/sqlite-store';
import type { z } from 'zod';
import type { HandlerContext, HandlerResult, RouteHandler } from './handler';

/**
 * A route of your own: the fields of a contract route (`RouteDefinition` of `@otto/api-contract`)
 * with your change-feed entity. Its path is below `/api` and must not be one of Otto's.
 * @example
 * const listNotes: CustomRoute = { method: 'GET', path: '/notes', response: z.array(noteSchema), totalCount: true };
 */
export interface CustomRoute {
  method: HttpMethod;
  /** Path below `/api`, with `:name` for path parameters: `/notes/:id`. */
  path: string;
  summary?: string;
  /** Path parameters, checked before the handler runs. */
  params?: z.ZodType;
  /** The `filterJson` query parameter; an invalid one is ignored (`invalidFilter: 'error'`: a 400). */
  filterJson?: z.ZodType;
  invalidFilter?: 'ignore' | 'error';
  /** The JSON body; one that fails it gets 400 `VALIDATION_FAILED` with the field issues. */
  body?: z.ZodType;
  /** Body size limit in bytes. @default the API's limit (64 KiB) */
  maxBodyBytes?: number;
  /** Documents the answer (not checked at run time). */
  response?: z.ZodType;
  /** Report the handler's `totalCount` in the `X-Total-Count` header. */
  totalCount?: boolean;
  /**
   * What a successful write publishes on the change feed once it committed: `{ entity, kind }`, with
   * the id of the record the handler answered (or the handler's own `changes`).
   */
  change?: { entity: string; kind: 'created' | 'updated' | 'deleted' };
}

/**
 * Your own migrations are numbered 1, 2, 3… within your extension; their versions are kept in the
 * `otto_extension_versions` table under your extension's name, never in Otto's `user_version`.
 * @example
 * const notes: MockApiExtension = { name: 'notes', migrations: [{ version: 1, name: 'notes', up: 'CREATE TABLE notes (…)' }], routes: [listNotes, createNote] };
 */
export interface MockApiExtension {
  /** Names the extension (letters, digits, `-`, `_`): its migrations' versions are kept under it. */
  name: string;
  migrations?: readonly Migration[];
  routes: readonly RouteHandler[];
}

/**
 * Binds a handler to a route of your own; the handler's context is typed by the route's schemas
 * and it answers the happy path only (throw `ApiError` otherwise). Writes run in a transaction.
 * @example
 * const createNote = defineRoute(
 *   { method: 'POST', path: '/notes', body: z.object({ text: z.string().min(1) }), change: { entity: 'note', kind: 'created' } },
 *   ({ body, db, now }) => ({ data: insertNote(db, body.text, now()) }),
 * );
 */
export function defineRoute<R extends CustomRoute>(route: R, handle: (ctx: HandlerContext<R>) => HandlerResult): RouteHandler {
  const asContractRoute = { summary: '', ...route } as unknown as RouteDefinition;
  return { route: asContractRoute, handle: handle as unknown as RouteHandler['handle'] };
}

/**
 * Checks an extension and returns it unchanged (a typed identity, for editors).
 * @example
 * export const notesExtension = defineExtension({ name: 'notes', migrations, routes: [listNotes, createNote] });
 */
export function defineExtension(extension: MockApiExtension): MockApiExtension {
  return extension;
}

/** A compiled route table of the extensions' routes, checked against Otto's and each other. */
export interface ExtensionRoutes {
  match(method: string, path: string): { handler: RouteHandler; params: Record<string, string> } | undefined;
}

export function compileExtensionRoutes(extensions: readonly MockApiExtension[]): ExtensionRoutes {
  const table: Array<{ handler: RouteHandler; method: string; segments: string[] }> = [];
  const names = new Set<string>();
  for (const extension of extensions) {
    if (!/^[\w-]+$/.test(extension.name)) {
      throw new Error(`An extension's name must be letters, digits, "-" or "_"; got ${JSON.stringify(extension.name)}.`);
    }
    if (names.has(extension.name)) throw new Error(`Two extensions are named "${extension.name}"; give each its own name.`);
    names.add(extension.name);
    for (const handler of extension.routes) {
      const { method, path } = handler.route;
      if (!path.startsWith('/')) throw new Error(`Route ${method} ${path} of extension "${extension.name}" must start with "/" (it is below /api).`);
      const segments = path.split('/').filter(Boolean);
      const sample = `/${segments.map((s) => (s.startsWith(':') ? 'x' : s)).join('/')}`;
      if (path.startsWith('/__otto/')) {
        throw new Error(`Route ${method} ${path} of extension "${extension.name}" is below /api/__otto/, where the mock's control routes are; choose another path.`);
      }
      if (matchRoute(method, sample).kind !== 'no-route') {
        throw new Error(`Route ${method} ${path} of extension "${extension.name}" is on one of Otto's own paths; choose another path.`);
      }
      if (table.some((r) => r.method === method && r.segments.join('/') === segments.join('/'))) {
        throw new Error(`Route ${method} ${path} is defined twice by the extensions.`);
      }
      table.push({ handler, method, segments });
    }
  }
  return {
    match(method, path) {
      const segments = path.split('/').filter(Boolean);
      for (const route of table) {
        if (route.method !== method.toUpperCase() || route.segments.length !== segments.length) continue;
        const params: Record<string, string> = {};
        const matched = route.segments.every((pattern, i) => {
          const value = segments[i] as string;
          if (!pattern.startsWith(':')) return pattern === value;
          try {
            params[pattern.slice(1)] = decodeURIComponent(value);
            return true;
          } catch {
            return false;
          }
        });
        if (matched) return { handler: route.handler, params };
      }
      return undefined;
    },
  };
}

const versionsTable = 'otto_extension_versions';

/**
 * Applies an extension's migrations newer than the version recorded for it, each in its own
 * transaction with the version bump; a failing one is rolled back and throws `MIGRATION_FAILED`.
 */
export function migrateExtension(db: Database, extension: MockApiExtension): { from: number; to: number } {
  const migrations = [...(extension.migrations ?? [])].sort((a, b) => a.version - b.version);
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new StoreError(
        'MIGRATION_FAILED',
        `DB migration failed: the migrations of extension "${extension.name}" must be numbered 1, 2, 3… without gaps; found ${migration.version} at position ${index + 1}.`,
      );
    }
  });
  db.exec(`CREATE TABLE IF NOT EXISTS ${versionsTable} (name TEXT PRIMARY KEY, version INTEGER NOT NULL)`);
  const from = db.get<{ version: number }>(`SELECT version FROM ${versionsTable} WHERE name = ?`, [extension.name])?.version ?? 0;
  if (from > migrations.length) {
    throw new StoreError(
      'SCHEMA_TOO_NEW',
      `The database has version ${from} of extension "${extension.name}", newer than this app knows (${migrations.length}). Update the app to open it.`,
    );
  }
  for (const migration of migrations.slice(from)) {
    try {
      db.transaction(() => {
        if (typeof migration.up === 'string') db.exec(migration.up);
        else migration.up(db);
        db.run(`INSERT INTO ${versionsTable} (name, version) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET version = excluded.version`, [
          extension.name,
          migration.version,
        ]);
      });
    } catch (error) {
      throw new StoreError(
        'MIGRATION_FAILED',
        `DB migration failed: migration ${migration.version} (${migration.name}) of extension "${extension.name}" was rolled back: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }
  return { from, to: migrations.length };
}

/**
 * The extensions' routes as a route table for `createOpenApiDocument`: one group per extension,
 * each route named by its method and path (`postNotes`, `getNotesId`).
 * @example
 * const document = createOpenApiDocument({ routes: { ...routes, ...extensionRouteTable([notesExtension]) } });
 */
export function extensionRouteTable(extensions: readonly MockApiExtension[]): RouteTable {
  const nameOf = (route: RouteDefinition) =>
    route.method.toLowerCase() +
    route.path
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
      .join('');
  // A group of Otto's own name (customers…) would replace Otto's in the document: name it apart.
  const groupOf = (name: string) => (Object.hasOwn(routes, name) ? `${name}-extension` : name);
  return Object.fromEntries(
    extensions.map((extension) => {
      const group: Record<string, RouteDefinition> = {};
      for (const handler of extension.routes) {
        let name = nameOf(handler.route);
        // Two paths that differ only in punctuation (/notes/:id, /notes/id) keep both.
        while (Object.hasOwn(group, name)) name = `${name}_`;
        group[name] = handler.route;
      }
      return [groupOf(extension.name), group];
    }),
  );
}
