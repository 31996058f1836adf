/**
 * The tables of a replayed `WalEntry` (its bulk entries' Arrow bodies decoded to rows too), made
 * on the page from the payload's bytes the first time
 * they are shown (the entry's panel, the Rows mode) and kept with the entry: the main process
 * only checked the payload, so a replay's cell texts are made for what is looked at, with the
 * decoder the CLI runs. Never for a payload the check did not find a `WalEntry`.
 */
import { tableFromIPC } from 'apache-arrow';
import type { ReplayEntryView } from '../../../../../shared/contract/wal';
import { bulkRowsDecoder } from '../../../../../shared/greptime/bulk/decode-bulk';
import type { EntryDecodeFailure, GtEntryTable } from '../../../../../shared/greptime/entry-table';
import { decodeEntryTable } from '../../../../../shared/greptime/decode/decode-table';

export type EntryTables =
  | { readonly ok: true; readonly table: GtEntryTable }
  /** Cannot follow a check that passed on the same bytes, but is shown if it ever does. */
  | { readonly ok: false; readonly failure: EntryDecodeFailure };

const made = new WeakMap<ReplayEntryView, EntryTables>();
/** Bulk entries' Arrow bodies decoded to rows on the page, as the CLI decodes them. */
const decodeBulk = bulkRowsDecoder({ tableFromIPC });

/** The entry's tables; null when its payload is not a `WalEntry`. */
export function tablesOf(entry: ReplayEntryView): EntryTables | null {
  if (entry.payload?.kind !== 'wal-entry') return null;
  let tables = made.get(entry);
  if (tables === undefined) {
    const decoded = decodeEntryTable(entry.data, decodeBulk);
    tables = decoded.ok
      ? { ok: true, table: decoded.table }
      : { ok: false, failure: decoded.failure };
    made.set(entry, tables);
  }
  return tables;
}
