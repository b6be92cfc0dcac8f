import { openSqliteStore, schemaOf, type SchemaObject } from '@otto/sqlite-store';
import { migrations } from './migrations';

const schemas = new Map<number, Promise<SchemaObject[]>>();

/**
 * Otto's own schema at `version`, as `schemaOf` reads it: a fresh in-memory database migrated to
 * that version (so it never drifts from the migrations). Made once per version and kept.
 * @example
 * const expected = await ottoSchemaAt(info.userVersion);
 */
export function ottoSchemaAt(version: number): Promise<SchemaObject[]> {
  let schema = schemas.get(version);
  if (!schema) {
    schema = (async () => {
      const store = await openSqliteStore({ storage: 'memory', logger: { warn: () => {} } });
      try {
        store.migrate(migrations.filter((m) => m.version <= version));
        return schemaOf(store);
      } finally {
        await store.close();
      }
    })();
    schema.catch(() => schemas.delete(version));
    schemas.set(version, schema);
  }
  return schema;
}

/**
 * How a file's schema differs from Otto's, in sentences (empty when it is the same): what the file
 * has that Otto's has not, what it lacks, and what it defines otherwise.
 * @example
 * schemaDifferences(info.schema, await ottoSchemaAt(2)); // ["The file has a trigger `x` that Otto's schema does not have."]
 */
export function schemaDifferences(file: readonly SchemaObject[], otto: readonly SchemaObject[]): string[] {
  const key = (o: SchemaObject) => `${o.type} ${o.name}`;
  const ours = new Map(otto.map((o) => [key(o), o]));
  const theirs = new Map(file.map((o) => [key(o), o]));
  const differences: string[] = [];
  for (const o of file) {
    const own = ours.get(key(o));
    if (!own) differences.push(`The file has ${article(o.type)} ${o.type} \`${o.name}\` that Otto's schema does not have.`);
    else if (own.sql !== o.sql || own.tableName !== o.tableName) differences.push(`The file's ${o.type} \`${o.name}\` is defined differently from Otto's.`);
  }
  for (const o of otto) {
    if (!theirs.has(key(o))) differences.push(`The file has no ${o.type} \`${o.name}\`, which Otto's schema has.`);
  }
  return differences;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? 'an' : 'a';
}
