import type { BuildSummary, ImportWorkerAnswer, ImportWorkerRequest, ReadSummary } from './import-worker-protocol';
import type { ColumnMapping, DateOrder, ImportKind } from './import-core';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Payload = DistributiveOmit<ImportWorkerRequest, 'id'>;

/** Talks to one import worker (one file at a time); `close` ends it. */
export function createImportWorker() {
  const worker = new Worker(new URL('./import.worker.ts', import.meta.url), { type: 'module', name: 'otto-import' });
  let nextId = 1;
  const waiting = new Map<number, { resolve: (a: ImportWorkerAnswer) => void; reject: (e: Error) => void; onProgress?: (f: number) => void }>();
  worker.onmessage = (event: MessageEvent<ImportWorkerAnswer>) => {
    const message = event.data;
    const entry = waiting.get(message.id);
    if (!entry) return;
    if (message.type === 'progress') return entry.onProgress?.(message.fraction);
    waiting.delete(message.id);
    if (message.type === 'error') entry.reject(new Error(message.message));
    else entry.resolve(message);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    for (const entry of waiting.values()) entry.reject(new Error('The file reader stopped unexpectedly. Try again, or try a smaller file.'));
    waiting.clear();
  };

  function ask(payload: Payload, onProgress?: (f: number) => void): Promise<ImportWorkerAnswer> {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject, ...(onProgress ? { onProgress } : {}) });
      worker.postMessage({ ...payload, id } as unknown as ImportWorkerRequest);
    });
  }

  return {
    async read(file: Blob, onProgress: (fraction: number) => void): Promise<ReadSummary> {
      const a = await ask({ type: 'read', file }, onProgress);
      return (a as Extract<ImportWorkerAnswer, { type: 'read' }>).summary;
    },
    async build(kind: ImportKind, mapping: ColumnMapping, order: DateOrder | undefined): Promise<BuildSummary> {
      const a = await ask({ type: 'build', kind, mapping, order });
      return (a as Extract<ImportWorkerAnswer, { type: 'built' }>).summary;
    },
    async records(rowNumbers: number[]): Promise<Map<number, string[]>> {
      const a = await ask({ type: 'records', rowNumbers });
      return new Map((a as Extract<ImportWorkerAnswer, { type: 'records' }>).records);
    },
    async skippedCsv(skipped: Map<number, string>): Promise<string> {
      const a = await ask({ type: 'skipped-csv', skipped: [...skipped] });
      return (a as Extract<ImportWorkerAnswer, { type: 'skipped-csv' }>).csv;
    },
    close: () => worker.terminate(),
  };
}

export type ImportWorker = ReturnType<typeof createImportWorker>;
