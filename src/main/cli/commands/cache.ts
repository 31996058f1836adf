/**
 * `cairn cache ls | clear`: the local object index of big prefixes, in the app data directory
 * and shared with the app (`object-index/`, one file per store and prefix, the least recently
 * used removed past the budget, `CAIRN_INDEX_CACHE_MIB`, default 1 GiB). Removing it changes no
 * store: the next open reads the objects again.
 */
import type { Command } from 'commander';
import { groupDescription } from '../command-groups';
import { printJson, printLines, table } from '../output';
import { runAction } from '../run-action';
import { ObjectIndexStore } from '../../services/object-index/index-store';
import { dataDirOf, withDataDirFlag, type DataDirOptions } from '../data-dir-flag';
import { IndexCacheUnreadableError } from './cache-errors';

/** The index of the data directory the command names, every failure typed. */
async function withIndex<T>(
  options: DataDirOptions,
  act: (store: ObjectIndexStore) => Promise<T>,
): Promise<T> {
  const store = new ObjectIndexStore(dataDirOf(options));
  try {
    return await act(store);
  } catch (error) {
    throw new IndexCacheUnreadableError(store.folder, error);
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

export function registerCache(program: Command): void {
  const cache = program.command('cache').description(groupDescription('cache'));

  withDataDirFlag(
    cache
      .command('ls')
      .description('Each prefix the index holds: store, prefix, format, objects, size, last use'),
  )
    .option('--json', 'JSON output')
    .action(
      runAction(async (options: { json?: boolean } & DataDirOptions) => {
        const { store, files } = await withIndex(options, async (store) => ({
          store,
          files: await store.list(),
        }));
        if (options.json) {
          printJson({
            folder: store.folder,
            budgetBytes: store.budgetBytes,
            files: files.map((file) => ({
              store: file.header?.store ?? null,
              prefix: file.header?.prefix ?? null,
              format: file.header?.format ?? null,
              objects: file.header?.objects ?? null,
              bytes: file.bytes,
              usedAt: new Date(file.usedAtMs).toISOString(),
              file: file.file,
            })),
          });
          return;
        }
        const total = files.reduce((sum, file) => sum + file.bytes, 0);
        printLines([
          ...table(
            ['FORMAT', 'OBJECTS', 'SIZE', 'USED', 'STORE', 'PREFIX'],
            files.map((file) => [
              file.header?.format ?? 'damaged',
              file.header === null ? '-' : String(file.header.objects),
              megabytes(file.bytes),
              new Date(file.usedAtMs).toISOString(),
              file.header?.store ?? '-',
              file.header?.prefix ?? file.file,
            ]),
          ),
          `${files.length} prefixes, ${megabytes(total)} of ${megabytes(store.budgetBytes)} in ${store.folder}`,
        ]);
      }),
    );

  withDataDirFlag(
    cache
      .command('clear')
      .description(
        'Remove the whole index and its temporary files (no store changes; the next open reads every object)',
      ),
  ).action(
    runAction(async (options: DataDirOptions) => {
      const cleared = await withIndex(options, (store) => store.clear());
      printLines([`removed ${cleared.files} index files, ${megabytes(cleared.bytes)}`]);
    }),
  );
}
