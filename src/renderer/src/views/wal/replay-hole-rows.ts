/**
 * The Replay view's hole rows: each damaged segment the replay skipped sits among the entries
 * where it was met (after the entries below its ids, before those above), in the order shown,
 * and stays whatever the entry filters hide - a skipped range is never filtered away. Pure.
 */
import type { ReplayHoleView } from '../../../../shared/contract/wal-damage';
import { formatEntryId, formatRegionId } from '../../../../shared/id-notation';

export type GridRow<T> =
  | { readonly kind: 'entry'; readonly row: T }
  | { readonly kind: 'hole'; readonly hole: ReplayHoleView };

/** `rows` are oldest first; the result is in the order shown. */
export function withHoleRows<T extends { readonly entry: { readonly id: bigint } }>(
  rows: readonly T[],
  holes: readonly ReplayHoleView[],
  newestFirst: boolean,
): GridRow<T>[] {
  const ordered = [...holes].sort((a, b) => (a.firstId < b.firstId ? -1 : 1));
  const merged: GridRow<T>[] = [];
  let next = 0;
  for (const row of rows) {
    while (next < ordered.length && (ordered[next]?.lastId ?? 0n) < row.entry.id)
      merged.push({ kind: 'hole', hole: ordered[next++]! });
    merged.push({ kind: 'entry', row });
  }
  for (; next < ordered.length; next++) merged.push({ kind: 'hole', hole: ordered[next]! });
  return newestFirst ? merged.reverse() : merged;
}

/** What a hole row says. */
export function holeText(hole: ReplayHoleView): string {
  const detail = hole.detail === '' ? '' : ` (${hole.detail})`;
  return `Hole: region ${formatRegionId(hole.regionId)} ids ${formatEntryId(hole.firstId)}–${formatEntryId(hole.lastId)} skipped · ${hole.key} · ${hole.check} check failed${detail}`;
}
