/**
 * One page of a prefix's objects for the Batches table, whichever reads it: the writer this
 * app holds (its catalog) or the prefix's read model (either format); filtered by
 * status, ascending by sequence, with the chain's sequence gaps counted over every page.
 */
import type { WalObjectRow } from '../../../shared/contract/wal';
import type { OpenProgress } from '../../../shared/contract/wal-pages';
import type { AppWriter } from './app-writer';
import { perSnapshot } from './view-pages';
import { sequenceGaps } from './wal-presenters';
import { chainRowsOf, unreadRowsOf, type ObjectLists } from './wal-reads';

export type ObjectStatusFilter = 'all' | WalObjectRow['status'];

export interface ObjectPage {
  readonly total: number;
  readonly offset: number;
  readonly gaps: number;
  readonly rows: WalObjectRow[];
  readonly progress: OpenProgress;
}

const LIST_OF_STATUS = {
  chain: 'chain',
  orphan: 'orphans',
  excluded: 'excluded',
  'below-boundary': 'belowBoundary',
} as const satisfies Record<WalObjectRow['status'], keyof ObjectLists>;

/** The writer's own catalog: what it indexed, and the orphans its open found. */
export function writerObjectLists(writer: AppWriter): ObjectLists {
  return {
    chain: chainRowsOf(writer.catalog),
    orphans: unreadRowsOf(writer.orphansAtOpen, 'orphan'),
    excluded: [],
    belowBoundary: [],
  };
}

/** Every object by sequence and the chain's gaps, once per lists (a snapshot's are kept). */
const summaryOf = perSnapshot((lists: ObjectLists) => ({
  all: [...lists.chain, ...lists.orphans, ...lists.excluded, ...lists.belowBoundary].sort((a, b) =>
    a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0,
  ),
  gaps: sequenceGaps(lists.chain.map((row) => row.seq)),
}));

export function objectPageOf(
  lists: ObjectLists,
  status: ObjectStatusFilter,
  offset: number,
  limit: number,
  progress: OpenProgress,
): ObjectPage {
  const summary = summaryOf.of(lists, lists);
  const rows = status === 'all' ? summary.all : lists[LIST_OF_STATUS[status]];
  return {
    total: rows.length,
    offset,
    gaps: summary.gaps,
    rows: rows.slice(offset, offset + limit),
    progress,
  };
}
