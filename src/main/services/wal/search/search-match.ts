/**
 * Which entries and rows of a prefix a search keeps, tested as each payload is decoded: on a
 * GreptimeDB prefix the rows that pass the row filter (`--where`, `--since`, `--until`; the
 * filter pushed into the payload's walk, decode/row-filter.ts), a condition on the entry's
 * region or id first tested without decoding; on Cairn's prefixes the entries whose payload
 * holds the text asked (`--text`, a byte search, nothing decoded). A GreptimeDB payload that is
 * not a `WalEntry` is reported, never a hit; so is a bulk entry (Arrow IPC) that gives no rows,
 * whose rows are otherwise searched like a mutation's after its time range lets it in
 * (bulk/bulk-filter.ts). Pure but for loading the Arrow library when a bulk entry needs it.
 */
import type { DamagedPayloadView } from '../../../../shared/contract/wal-search';
import type { EntryDecodeFailure } from '../../../../shared/greptime/entry-table';
import { filterEntryRows } from '../../../../shared/greptime/decode/row-filter';
import { formatEntryId, formatRegionId } from '../../../../shared/id-notation';
import { rowText, type ReplayRow } from '../../../../shared/greptime/replay-rows';
import {
  textHolds,
  type RowCondition,
  type RowFilter,
} from '../../../../shared/greptime/row-filter';
import type { SearchHit } from '../../../../shared/search/search-hits';
import { GT_FORMAT } from '../../../engine/greptimedb/layout';
import type { WalEntry } from '../../../engine/wal/entry';
import type { WalFormat } from '../../../engine/wal-read/format';
import { bulkDecoder } from '../bulk-decoder';

export interface SearchFilter {
  readonly rows: RowFilter;
  /** Text a Cairn payload must hold (its bytes, as UTF-8); null: any. */
  readonly text: string | null;
}

export interface EntryVerdict {
  readonly hits: SearchHit[];
  /** Rows looked at (0 for Cairn's entries). */
  readonly rows: number;
  /** Bulk entries the payload holds, and of them those left out undecoded by their time range. */
  readonly bulk: number;
  readonly bulkSkipped: number;
  /** What of the payload is damage: not a `WalEntry`, or a bulk entry without its rows. */
  readonly damaged: readonly DamagedPayload[];
}

export type DamagedPayload = DamagedPayloadView;

export type EntryMatcher = (region: bigint, entry: WalEntry) => EntryVerdict;

/** Keys an entry has before its payload is decoded. */
const ENTRY_KEYS: ReadonlySet<string> = new Set(['region', 'regionU64', 'id', 'idU64']);

const NONE: EntryVerdict = { hits: [], rows: 0, bulk: 0, bulkSkipped: 0, damaged: [] };

function entryKey(region: bigint, id: bigint): string {
  return `region ${formatRegionId(region)} entry ${formatEntryId(id)}`;
}

function notWalEntry(region: bigint, id: bigint, failure: EntryDecodeFailure): DamagedPayload {
  const reason = `not a WalEntry: ${failure.reason} at byte ${failure.offset} (${failure.detail})`;
  return { what: 'payload', key: entryKey(region, id), reason };
}

/** Whether the filter's conditions on the entry's own keys hold (the rest decide later). */
function entryKeysHold(conditions: readonly RowCondition[], region: bigint, id: bigint): boolean {
  const row: ReplayRow = { region, id, op: '', sequence: 0n, columns: [], cells: [] };
  return conditions.every((c) => !ENTRY_KEYS.has(c.key) || textHolds(rowText(row, c.key), c));
}

function rowMatcher(filter: RowFilter): EntryMatcher {
  const entryConditions = filter.conditions.filter((c) => ENTRY_KEYS.has(c.key));
  return (region, entry) => {
    if (entryConditions.length > 0 && !entryKeysHold(entryConditions, region, entry.id))
      return NONE;
    const filtered = filterEntryRows(entry.data, region, entry.id, filter, bulkDecoder);
    if (!filtered.ok)
      return { ...NONE, damaged: [notWalEntry(region, entry.id, filtered.failure)] };
    const { bulk } = filtered;
    const key = bulk.problems.length > 0 ? entryKey(region, entry.id) : '';
    return {
      hits: filtered.hits.map((row): SearchHit => ({ kind: 'row', row })),
      rows: filtered.rows,
      bulk: bulk.met,
      bulkSkipped: bulk.skipped,
      damaged: bulk.problems.map((reason) => ({ what: 'bulk entry', key, reason })),
    };
  };
}

function textMatcher(text: string | null): EntryMatcher {
  const needle = text === null ? null : Buffer.from(text, 'utf8');
  return (region, entry) => {
    const data = entry.data;
    if (
      needle !== null &&
      Buffer.from(data.buffer, data.byteOffset, data.length).indexOf(needle) < 0
    )
      return NONE;
    return {
      ...NONE,
      hits: [{ kind: 'entry', entry: { region, id: entry.id, data: data.slice() } }],
    };
  };
}

/** The matcher of `filter` on a prefix of `format`. */
export function matcherOf(format: WalFormat, filter: SearchFilter): EntryMatcher {
  return format === GT_FORMAT ? rowMatcher(filter.rows) : textMatcher(filter.text);
}

/** Whether a prefix of `format` can take `filter`; the reason when it cannot. */
export function filterProblem(format: WalFormat, filter: SearchFilter): string | null {
  const rows = filter.rows;
  const rowFlags = rows.conditions.length > 0 || rows.since !== null || rows.until !== null;
  if (format === GT_FORMAT && filter.text !== null)
    return 'a text search reads Cairn payloads: on a GreptimeDB prefix, filter rows (--where)';
  if (format !== GT_FORMAT && rowFlags)
    return 'rows are filtered on GreptimeDB prefixes: search Cairn payloads by --text';
  return null;
}
