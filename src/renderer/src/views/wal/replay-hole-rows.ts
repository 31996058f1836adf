/**
 * The hole rows of a replay's or a search's table: each damaged segment skipped sits among the
 * rows where it was met (after the rows below its ids, before those above), in the order shown,
 * and stays whatever the row filters hide - a skipped range is never filtered away. Pure.
 */
import type { ReplayHoleView } from '../../../../shared/contract/wal-damage';
import { formatEntryId, formatRegionId } from '../../../../shared/id-notation';

export type GridRow<T> =
  | { readonly kind: 'entry'; readonly row: T }
  | { readonly kind: 'hole'; readonly hole: ReplayHoleView };

/** `rows` are oldest first, `idOf` their entry id; the result is in the order shown. */
export function withHoleRows<T>(
  rows: readonly T[],
  holes: readonly ReplayHoleView[],
  newestFirst: boolean,
  idOf: (row: T) => bigint,
): GridRow<T>[] {
  const ordered = [...holes].sort((a, b) => (a.firstId < b.firstId ? -1 : 1));
  const merged: GridRow<T>[] = [];
  let next = 0;
  for (const row of rows) {
    while (next < ordered.length && (ordered[next]?.lastId ?? 0n) < idOf(row))
      merged.push({ kind: 'hole', hole: ordered[next++]! });
    merged.push({ kind: 'entry', row });
  }
  for (; next < ordered.length; next++) merged.push({ kind: 'hole', hole: ordered[next]! });
  return newestFirst ? merged.reverse() : merged;
}

/**
 * Names one hole among those of a replay or search: a segment is skipped once per region, so
 * its object, region and first id tell it from every other.
 */
export function holeId(hole: ReplayHoleView): string {
  return `${hole.key} ${String(hole.regionId)} ${String(hole.firstId)}`;
}

/** Where a hole is among `rows`, -1 when it is not there. */
export function holeIndex<T>(rows: readonly GridRow<T>[], id: string): number {
  return rows.findIndex((row) => row.kind === 'hole' && holeId(row.hole) === id);
}

/** What a hole is: its region, ids, object and why, as the CLI's hole line says it. */
export function holeWords(hole: ReplayHoleView): string {
  const detail = hole.detail === '' ? '' : ` (${hole.detail})`;
  return `region ${formatRegionId(hole.regionId)} ids ${formatEntryId(hole.firstId)}–${formatEntryId(hole.lastId)} skipped · ${hole.key} · ${hole.check} check failed${detail}`;
}

/** What a hole row says. */
export function holeText(hole: ReplayHoleView): string {
  return `Hole: ${holeWords(hole)}`;
}
