import { z } from 'zod';
import { apiErrorSchema, apiIssueSchema } from '../api-error';
import { customerDuplicateSchema, customerInputSchema, customerListParamsSchema, customerSchema, customerShapeSchema } from '../customer';
import { jobCountsSchema, jobInputSchema, jobListParamsSchema, jobMoveSchema, jobPatchSchema, jobSchema, jobStatusSchema } from '../job';
import { reportSummaryParamsSchema, reportSummarySchema } from '../report';

/** Where named schemas live in the document. */
export const schemaRefPrefix = '#/components/schemas/';

/**
 * The contract's schemas that get a name in `components.schemas`, so generators make one model per
 * entity instead of one per use. Any other schema of a route is written inline.
 */
export function createSchemaRegistry() {
  const registry = z.registry<{ id: string; description: string }>();
  registry.add(customerSchema, { id: 'Customer', description: 'A customer: the id is a string, times are epoch milliseconds.' });
  registry.add(customerShapeSchema, {
    id: 'CustomerShape',
    description:
      "The spec's shape check of a customer body: full_name, phone and email are strings, id a string when present. A body failing it is answered 200 with null.",
  });
  registry.add(customerInputSchema, {
    id: 'CustomerInput',
    description:
      'The field rules a customer body passing the shape check must also meet (values are trimmed first); a body breaking them is answered 400 VALIDATION_FAILED with issues per field.',
  });
  registry.add(customerListParamsSchema, {
    id: 'ListParams',
    description:
      "The customer list filter, sent JSON-encoded in the filterJson query parameter: the spec's queryText, offset and limit, and archived: true for the archive.",
  });
  registry.add(customerDuplicateSchema, {
    id: 'CustomerDuplicate',
    description: 'An existing customer with the same email (any case) or the same phone digits, and which of the two matched.',
  });
  registry.add(jobStatusSchema, { id: 'JobStatus', description: 'Where a job stands, in lifecycle order.' });
  registry.add(jobSchema, {
    id: 'Job',
    description: 'A job: ids are strings, times epoch milliseconds, money whole cents; status_dates holds when the job last reached each status (null: never).',
  });
  registry.add(jobInputSchema, {
    id: 'JobInput',
    description: 'The body that creates or replaces a job; omitted optional fields take their defaults. An end time needs a start time and is not before it.',
  });
  registry.add(jobPatchSchema, { id: 'JobPatch', description: 'Any subset of the fields of a job; the result must still meet every rule.' });
  registry.add(jobListParamsSchema, {
    id: 'JobListParams',
    description: 'The job list and counts filter, sent JSON-encoded in the filterJson query parameter.',
  });
  registry.add(jobMoveSchema, {
    id: 'JobMove',
    description: 'A one-click status move: the new status, and a start (and end) time when scheduling.',
  });
  registry.add(jobCountsSchema, { id: 'JobCounts', description: 'How many jobs match, per status and in all.' });
  registry.add(reportSummaryParamsSchema, {
    id: 'ReportSummaryParams',
    description: 'The summary report filter, sent JSON-encoded in the filterJson query parameter: tz (required), from/to months, weekStart, topOwing.',
  });
  registry.add(reportSummarySchema, {
    id: 'ReportSummary',
    description: 'The Overview figures. Money is whole cents; each month and day carries its [start_dt, end_dt) boundaries in epoch ms, computed in tz.',
  });
  registry.add(apiIssueSchema, { id: 'ApiIssue', description: 'One problem with one field; path is the field name.' });
  registry.add(apiErrorSchema, {
    id: 'ApiError',
    description: "The JSON body of every error that is not the spec's plain-text `Not found`.",
  });
  return registry;
}

/** One registry's schemas; its entries stay in the order they were added. */
export type SchemaRegistry = ReturnType<typeof createSchemaRegistry>;

import type { JsonSchema } from './openapi-types';

/** Every named schema as JSON Schema 2020-12 (the dialect of OpenAPI 3.1), refs between them included. */
export function componentSchemas(registry: SchemaRegistry): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, { io: 'input', metadata: registry, uri: (id) => `${schemaRefPrefix}${id}` }) as {
    schemas: Record<string, JsonSchema>;
  };
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _schema, $id: _id, ...schema }]) => [id, schema]),
  );
}

/**
 * One schema of a route as JSON Schema, naming the registry's schemas by `$ref`: a named schema
 * is a bare reference, and the `$defs` zod writes for named schemas inside it point to the
 * document's components instead.
 */
export function routeSchema(schema: z.ZodType, registry: SchemaRegistry, names: ReadonlySet<string>): JsonSchema {
  const named = registry.get(schema);
  if (named) return { $ref: `${schemaRefPrefix}${named.id}` };
  const { $schema: _schema, $defs, ...json } = z.toJSONSchema(schema, { io: 'input', metadata: registry }) as JsonSchema & {
    $defs?: Record<string, JsonSchema>;
  };
  const leftover = Object.keys($defs ?? {}).filter((id) => !names.has(id));
  if (leftover.length) {
    throw new Error(`Schema definitions ${leftover.join(', ')} are neither inline nor named; give them an id in the schema registry.`);
  }
  return JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', `"${schemaRefPrefix}`)) as JsonSchema;
}
