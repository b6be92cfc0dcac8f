import { customerRoutes, importRoutes, jobRoutes, type ImportDuplicateChoice, type ImportResult, type ImportUndoResult } from '@otto/api-contract';
import { ApiClientError, callApi } from '../../lib/api-client';
import type { ImportKind } from './import-core';

/** Sends rows built in the worker (already JSON) to the import route; `dryRun` only checks. */
export async function sendImport(kind: ImportKind, rowsJson: Uint8Array, duplicates: ImportDuplicateChoice, dryRun: boolean): Promise<ImportResult> {
  const route = kind === 'customers' ? customerRoutes.import : jobRoutes.import;
  // A Blob of the worker's bytes: the page neither copies nor encodes the rows.
  const rawBody = new Blob(['{"rows":', rowsJson as BlobPart, `,"duplicates":${JSON.stringify(duplicates)},"dryRun":${dryRun}}`]);
  const { data } = await callApi(route, { rawBody });
  return data;
}

export async function undoLastImport(): Promise<ImportUndoResult> {
  const { data } = await callApi(importRoutes.undo);
  return data;
}

/** The words of a failed call: the issues of a 400 when it names them. */
export function errorWords(error: unknown): string {
  if (error instanceof ApiClientError) {
    const issues = (error.data as { issues?: { message: string }[] } | undefined)?.issues;
    if (issues?.length) return issues.map((i) => i.message).join(' ');
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
