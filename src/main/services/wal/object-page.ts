/**
 * One page of a prefix's objects for the Batches table, whichever reads it: the writer this
 * app holds (its catalog), a GreptimeDB recovery, or Cairn's read-only recovery; filtered by
 * status, ascending by sequence, with the chain's sequence gaps counted over every page.
 */
import type { WalObjectRow } from '../../../shared/contract/wal';
import { inspectGtPrefix } from '../../engine/greptimedb/inspect';
import type { AppWriter } from './app-writer';
import { gtObjectLists } from './greptimedb-views';
import type { Located } from './wal-locate';
import { sequenceGaps } from './wal-presenters';
import { chainRowsOf, readOnlyObjects, unreadRowsOf, type ObjectLists } from './wal-reads';

export type ObjectStatusFilter = 'all' | WalObjectRow['status'];

export interface ObjectPage {
  readonly total: number;
  readonly offset: number;
  readonly gaps: number;
  readonly rows: WalObjectRow[];
}

const LIST_OF_STATUS = {
  chain: 'chain',
  orphan: 'orphans',
  excluded: 'excluded',
  'below-boundary': 'belowBoundary',
} as const satisfies Record<WalObjectRow['status'], keyof ObjectLists>;

export async function objectListsOf(
  at: Located,
  writer: AppWriter | undefined,
): Promise<ObjectLists> {
  if (at.format === 'greptimedb-v1') return gtObjectLists(await inspectGtPrefix(at.io, at.prefix));
  if (writer === undefined) return readOnlyObjects(at.io, at.config);
  return {
    chain: chainRowsOf(writer.catalog),
    orphans: unreadRowsOf(writer.orphansAtOpen, 'orphan'),
    excluded: [],
    belowBoundary: [],
  };
}

export function objectPageOf(
  lists: ObjectLists,
  status: ObjectStatusFilter,
  offset: number,
  limit: number,
): ObjectPage {
  const rows =
    status === 'all'
      ? [...lists.chain, ...lists.orphans, ...lists.excluded, ...lists.belowBoundary].sort(
          (a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0),
        )
      : lists[LIST_OF_STATUS[status]];
  return {
    total: rows.length,
    offset,
    gaps: sequenceGaps(lists.chain.map((row) => row.seq)),
    rows: rows.slice(offset, offset + limit),
  };
}
