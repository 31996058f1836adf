/**
 * `cairn wal inspect`'s reopen of a prefix on a local directory: the report judged last time,
 * kept beside the local index (`services/object-index/judged-reports.ts`), is printed again
 * while the prefix's folders are unchanged - its objects folder and, for Cairn, its register's
 * - at the cost of a `stat` of each folder and one file read, not a listing of 100,000 keys.
 * Anything else (S3, a folder changed, a report with a failure) inspects as before, and keeps
 * the report when the folders did not change while it ran.
 */
import type { ObjectIo } from '../../engine/objectio/object-io';
import { folderStampOf } from '../../engine/objectio/object-io';
import { manifestCell, objectsFolder } from '../../engine/wal/keys';
import type { AnyInspectReport } from '../../engine/wal-read/read-side';
import type { ReadTarget } from '../../engine/wal-read/target';
import type { ObjectIndexStore } from '../../services/object-index/index-store';
import { JudgedReports } from '../../services/object-index/judged-reports';
import { indexStoreOfCli } from './command-index';

/** The folders a target's report is judged from: its objects, and Cairn's register. */
function foldersOf(target: ReadTarget): string[] {
  const objects = objectsFolder(target.prefix);
  return target.format === 'cairn-v1' ? [objects, `${manifestCell(target.prefix)}/`] : [objects];
}

/** Every folder's stamp, or null when one has none (a store without folders, a busy folder). */
async function stampsOf(io: ObjectIo, target: ReadTarget): Promise<string[] | null> {
  const stamps = await Promise.all(foldersOf(target).map((folder) => folderStampOf(io, folder)));
  return stamps.every((stamp): stamp is string => stamp !== null) ? stamps : null;
}

function sameStamps(a: readonly string[] | null, b: readonly string[] | null): boolean {
  return a !== null && b !== null && a.length === b.length && a.every((s, at) => s === b[at]);
}

/**
 * The report of `target`: the one kept while its folders are unchanged, else `inspect()`'s
 * (kept for the next when it found no failure and the folders held still while it ran).
 */
export async function judgedInspect(
  io: ObjectIo,
  target: ReadTarget,
  inspect: () => Promise<AnyInspectReport>,
  store: () => ObjectIndexStore = indexStoreOfCli,
): Promise<AnyInspectReport> {
  const startedAt = performance.now();
  const before = await stampsOf(io, target);
  if (before === null) return inspect();
  const reports = new JudgedReports(store());
  const identity = { store: io.endpoint, prefix: target.prefix, format: target.format };
  const kept = (await reports.load(identity, before)) as AnyInspectReport | null;
  if (kept !== null && kept.format === target.format && kept.prefix === target.prefix)
    return { ...kept, durationMs: performance.now() - startedAt };
  const report = await inspect();
  if (report.failure === null && sameStamps(before, await stampsOf(io, target)))
    await reports.save(identity, before, report).catch(() => undefined); // a cache: never fatal
  return report;
}
