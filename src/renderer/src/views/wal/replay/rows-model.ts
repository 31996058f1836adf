/**
 * The Replay view's Rows mode as data: the rows of the kept entries whose payloads decoded as a
 * GreptimeDB `WalEntry` (bulk entries' rows after their mutations', with the union of their
 * columns, lined up by key), notices in place of what gave no rows (not a `WalEntry` with its
 * reason and offset, a bulk entry whose Arrow body does not decode or whose rows are not its
 * time range, payloads too large to decode here), the filter the column inputs and time range
 * make, and the CLI command that prints the same rows. Pure (the tables are made from the
 * entries' bytes once, entry-tables.ts); rows and CSV come from src/shared/greptime, as the
 * CLI's do.
 */
import type { ReplayEntryView } from '../../../../../shared/contract/wal';
import type {
  EntryDecodeFailure,
  GtColumnView,
  GtEntryTable,
} from '../../../../../shared/greptime/entry-table';
import {
  ColumnUnion,
  rowsOfEntry,
  type ReplayRow,
} from '../../../../../shared/greptime/replay-rows';
import {
  conditionOfInput,
  filterFlags,
  parseUtcTime,
  rowMatches,
  type RowCondition,
  type RowFilter,
} from '../../../../../shared/greptime/row-filter';
import { formatEntryId } from '../../../../../shared/id-notation';
import { tablesOf } from './entry-tables';
import { formatCount } from '../../format';

export interface RowsNotice {
  readonly id: bigint;
  readonly text: string;
  readonly damaged: boolean;
}

export type RowsItem =
  | { readonly kind: 'row'; readonly row: ReplayRow }
  | { readonly kind: 'notice'; readonly notice: RowsNotice };

export interface RowsModel {
  readonly columns: readonly GtColumnView[];
  /** Rows and notices in replay order. */
  readonly items: readonly RowsItem[];
  readonly decodedEntries: number;
}

function damagedNotice(id: bigint, failure: EntryDecodeFailure): RowsNotice {
  return {
    id,
    text: `entry ${formatEntryId(id)} is not a WalEntry: ${failure.reason} at byte ${failure.offset} (${failure.detail})`,
    damaged: true,
  };
}

/** A bulk entry that gives no rows, or whose rows are not its time range: said in their place. */
function bulkNotice(id: bigint, table: GtEntryTable): RowsNotice | null {
  const problems = table.bulk.flatMap((bulk, at) => {
    const decoded = bulk.decoded;
    if (decoded === null || (decoded.ok && decoded.time.problem === null)) return [];
    return decoded.ok
      ? [`bulk entry ${at + 1}: ${decoded.time.problem}`]
      : [
          `bulk entry ${at + 1} gives no rows: ${decoded.failure.reason} (${decoded.failure.detail})`,
        ];
  });
  if (problems.length === 0) return null;
  return { id, text: `entry ${formatEntryId(id)}: ${problems.join('; ')}`, damaged: true };
}

function noticeOf(entry: ReplayEntryView): RowsNotice | null {
  const payload = entry.payload;
  const id = formatEntryId(entry.id);
  if (payload === undefined) return null;
  switch (payload.kind) {
    case 'wal-entry': {
      const tables = tablesOf(entry);
      if (tables?.ok === false) return damagedNotice(entry.id, tables.failure);
      return tables === null ? null : bulkNotice(entry.id, tables.table);
    }
    case 'not-wal-entry':
      return damagedNotice(entry.id, payload.failure);
    case 'not-decoded':
      return {
        id: entry.id,
        text: `entry ${id}: ${formatCount(entry.size)} bytes, too large to decode here; cairn wal replay --decode shows it`,
        damaged: false,
      };
    default:
      return null;
  }
}

export function rowsModel(entries: readonly ReplayEntryView[], region: bigint): RowsModel {
  const union = new ColumnUnion();
  const items: RowsItem[] = [];
  let decodedEntries = 0;
  for (const entry of entries) {
    const notice = noticeOf(entry);
    if (notice !== null) items.push({ kind: 'notice', notice });
    const tables = tablesOf(entry);
    if (tables?.ok !== true) continue;
    decodedEntries += 1;
    union.add(tables.table);
    for (const row of rowsOfEntry(region, entry.id, tables.table)) items.push({ kind: 'row', row });
  }
  return { columns: union.columns(), items, decodedEntries };
}

export interface RowsFilterInput {
  /** Per key, what its filter box holds: `text` contains, `=v` equal, `!=v` not equal. */
  readonly columns: Readonly<Record<string, string>>;
  readonly since: string;
  readonly until: string;
}

/** The filter the inputs make, or the problem with a time. */
export function rowFilterOfInput(input: RowsFilterInput): RowFilter | Error {
  const conditions = Object.entries(input.columns)
    .map(([key, text]) => conditionOfInput(key, text))
    .filter((condition): condition is RowCondition => condition !== null);
  const time = (label: string, text: string): bigint | null | Error => {
    if (text.trim() === '') return null;
    return parseUtcTime(text) ?? new Error(`${label}: a UTC time like 2026-01-01T00:08:00Z`);
  };
  const since = time('From', input.since);
  const until = time('To', input.until);
  if (since instanceof Error) return since;
  if (until instanceof Error) return until;
  return { conditions, since, until };
}

/** Rows that pass, and every notice (a damaged payload is never filtered out of sight). */
export function filteredItems(items: readonly RowsItem[], filter: RowFilter): RowsItem[] {
  return items.filter((item) => item.kind === 'notice' || rowMatches(item.row, filter));
}

export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * The `cairn wal replay` command printing the same rows as the export: the store's flags
 * (`cliStoreFlags`) first, so it runs as pasted against the store the console reads.
 */
export function cliCommand(
  replay: { prefix: string; region: string; from: string },
  filter: RowFilter,
  input: RowsFilterInput,
  format: 'ndjson' | 'csv',
  storeFlags: readonly string[] = [],
): string {
  const words = [
    'cairn',
    'wal',
    'replay',
    ...storeFlags,
    '--prefix',
    replay.prefix,
    '--region',
    replay.region,
    '--from',
    replay.from,
    '--rows',
    ...(format === 'csv' ? ['--format', 'csv'] : []),
    ...filterFlags(filter, { since: input.since.trim(), until: input.until.trim() }),
  ];
  return words.map(shellWord).join(' ');
}
