// Where a DB worker's first-start database file comes from: the page (`postSeedFile`) or `seed.file`, loaded early on a first start.
import { isNewOpfsPool } from '@otto/sqlite-store';
import type { Logger } from '../logger';
import { messageFromPage } from './message-from-page';
import type { ServeMockApiInWorkerOptions, WorkerScope } from './types';

/**
 * The first-start file of a worker's database: `newDatabase` for the store (undefined without a
 * `{ file }` seed), and `takePageMoment`, the moment the page chose for its dates, taken by the open
 * that follows a `newDatabase`.
 */
export function firstStartFile(
  options: ServeMockApiInWorkerOptions,
  scope: WorkerScope,
  logger: Logger,
  storage: NonNullable<ServeMockApiInWorkerOptions['storage']>,
) {
  // A first-start database file is put in place before the first open (no empty database,
  // migration or inserts first): createMockApi then only moves its dates.
  const seedFile = options.seed && 'file' in options.seed ? options.seed.file : undefined;
  // The page's copy of that file (`postSeedFile`), fetched while this script loaded.
  const fromPage = options.seedFileFromPage
    ? messageFromPage(scope, 'seed-file', logger, 'first-start file').then((message) => (message?.bytes ? new Uint8Array(message.bytes) : undefined))
    : undefined;
  // The moment the page chose for a first start's dates (posted at once, before the file): asked
  // for only when a database is made; a later fresh start (a delete) uses its own.
  const fromPageMoment = options.seedFileFromPage ? messageFromPage(scope, 'seed-moment', logger, 'first-start moment') : undefined;
  let pageMoment: Promise<number | undefined> | undefined;
  const loadSeedFile = async () => (await fromPage) ?? (typeof seedFile === 'function' ? seedFile() : seedFile);
  // On a first start (no OPFS directory yet) the file loads while SQLite does, not after the open.
  let seedFirst =
    seedFile && storage === 'opfs'
      ? isNewOpfsPool(options.opfsDirectory).then((first) => (first ? loadSeedFile() : undefined)).catch(() => undefined)
      : undefined;
  const newDatabase = seedFile
    ? async () => {
        const early = seedFirst;
        seedFirst = undefined;
        pageMoment = fromPageMoment?.then((message) => message?.moment);
        return (await early) ?? loadSeedFile();
      }
    : undefined;
  async function takePageMoment(): Promise<number | undefined> {
    const seedMoment = await pageMoment;
    pageMoment = undefined;
    return seedMoment;
  }
  return { newDatabase, takePageMoment };
}
