/**
 * The fleet overview's columns: what each shows of a row, the value it sorts by (rows not
 * read yet sort last whatever the direction) and the text the filter matches. The filter
 * matches any column's text, so "CorruptObject", "greptimedb" or a node id all find rows.
 */
import type { FleetRow } from '../../../../shared/contract/wal';
import { lagText } from '../../../../shared/lag-text';
import { formatBytes, formatCount } from '../format';
import { counted } from '../../../../shared/plural';

export { lagText };

export type FleetColumnKey =
  | 'prefix'
  | 'objects'
  | 'bytes'
  | 'tip'
  | 'newest'
  | 'floor'
  | 'lag'
  | 'orphans'
  | 'damaged'
  | 'writer'
  | 'state';

type SortValue = string | number | bigint | null;

export interface FleetColumn {
  readonly key: FleetColumnKey;
  readonly label: string;
  readonly sortValue: (row: FleetRow) => SortValue;
}

/**
 * The row's state in words: what the State column shows - the main process's derivation
 * (`healthy` only with no problem; otherwise each problem with its reason).
 */
export function stateText(row: FleetRow): string {
  return row.health.text;
}

/** A row with any problem: what "problems only" keeps, the same rule as its State. */
export function hasProblem(row: FleetRow): boolean {
  return row.health.reasons.length > 0;
}

export function writerText(row: FleetRow): string {
  if (row.format === 'greptimedb-v1') return 'GreptimeDB datanode';
  return row.writerHeld ? 'open here' : 'not in this app';
}

export function objectsText(row: FleetRow): string | null {
  if (row.objects === null) return null;
  // A prefix whose recovery failed has no chain: what was listed says what is there.
  if (row.tipSeq === null && (row.listed ?? 0) > row.objects)
    return `${formatCount(row.objects)} chain of ${formatCount(row.listed ?? 0)} listed`;
  return `${formatCount(row.objects)} chain · ${counted(row.orphans ?? 0, 'orphan')}`;
}

export function tipText(row: FleetRow): string {
  if (row.state === 'pending') return '';
  if (row.tipSeq === null)
    return row.openFailure === null ? 'none' : `none (${row.openFailure.code})`;
  // GreptimeDB's merged layout has no epoch: its rows carry none.
  return `seq ${String(row.tipSeq)}${row.tipEpoch === null ? '' : ` · epoch ${String(row.tipEpoch)}`}`;
}

export const FLEET_COLUMNS: readonly FleetColumn[] = [
  { key: 'prefix', label: 'Prefix', sortValue: (row) => row.prefix },
  { key: 'objects', label: 'Objects', sortValue: (row) => row.objects },
  { key: 'bytes', label: 'Bytes', sortValue: (row) => row.bytes },
  { key: 'tip', label: 'Tip', sortValue: (row) => row.tipSeq },
  { key: 'newest', label: 'Newest object', sortValue: (row) => row.newestObjectAtMs },
  { key: 'floor', label: 'Floor', sortValue: (row) => row.floor },
  { key: 'lag', label: 'Lag', sortValue: (row) => row.lagObjects },
  { key: 'orphans', label: 'Orphans', sortValue: (row) => row.orphans },
  { key: 'damaged', label: 'Damaged', sortValue: (row) => row.damaged },
  { key: 'writer', label: 'Writer', sortValue: writerText },
  { key: 'state', label: 'State', sortValue: stateText },
];

/** Every column's text of a row, lower-cased: what the filter looks in. */
export function searchText(row: FleetRow): string {
  return [
    row.prefix,
    row.format ?? '',
    objectsText(row) ?? '',
    row.bytes === null ? '' : formatBytes(row.bytes),
    tipText(row),
    row.floor === null ? '' : `floor ${String(row.floor)}`,
    lagText(row),
    writerText(row),
    stateText(row),
    row.openFailure?.message ?? '',
    row.error?.message ?? '',
  ]
    .join(' ')
    .toLowerCase();
}

function compareValues(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'string' || typeof b === 'string') return String(a).localeCompare(String(b));
  return a < b ? -1 : 1;
}

export interface FleetSort {
  readonly key: FleetColumnKey;
  readonly descending: boolean;
}

/** Sorted by the column; unread rows (null) last in both directions, then by prefix. */
export function sortRows(rows: readonly FleetRow[], sort: FleetSort): FleetRow[] {
  const column = FLEET_COLUMNS.find((c) => c.key === sort.key) ?? FLEET_COLUMNS[0];
  if (column === undefined) return [...rows];
  return [...rows].sort((a, b) => {
    const va = column.sortValue(a);
    const vb = column.sortValue(b);
    if (va === null || vb === null)
      return compareValues(va, vb) || a.prefix.localeCompare(b.prefix);
    const order = compareValues(va, vb);
    return (sort.descending ? -order : order) || a.prefix.localeCompare(b.prefix);
  });
}
