/**
 * A search's hits as a table that shows only the rows in view (useVirtualRows), however many
 * were found: region and entry, then a row's op, sequence and every column met (lined up by
 * key), or an entry's size and payload text; a hole row where a damaged segment was skipped.
 * Read-only; the page grows as hits stream in.
 */
import { useCallback } from 'react';
import type { GtColumnView } from '../../../../../shared/greptime/entry-table';
import { cellText } from '../../../../../shared/greptime/replay-rows';
import { formatEntryId, formatRegionId } from '../../../../../shared/id-notation';
import {
  idOfHit,
  payloadTextOf,
  regionOfHit,
  type SearchHit,
} from '../../../../../shared/search/search-hits';
import { useVirtualRows } from '../../../components/use-virtual-rows';
import { HoleRow } from '../holes/HoleRow';
import { useHoleJump, type HoleJump } from '../holes/use-hole-jump';
import { searchHoleIndex, searchRowAt, type MetHole } from './search-hole-rows';
import { RowsGridHead, RowsHeadLine, rowsGrid } from '../replay/RowsGridHead';
import '../replay/rows.css';

const ROW_HEIGHT = 28;

interface Column {
  readonly key: string;
  readonly title: string;
  readonly width: number;
  readonly text: (hit: SearchHit) => string;
}

const COMMON: readonly Column[] = [
  { key: 'region', title: 'Region', width: 100, text: (hit) => formatRegionId(regionOfHit(hit)) },
  { key: 'id', title: 'Entry', width: 110, text: (hit) => formatEntryId(idOfHit(hit)) },
];

const ENTRY_COLUMNS: readonly Column[] = [
  ...COMMON,
  {
    key: 'size',
    title: 'Size',
    width: 80,
    text: (hit) => String(hit.kind === 'entry' ? hit.entry.data.length : 0),
  },
  {
    key: 'payload',
    title: 'Payload',
    width: 520,
    text: (hit) =>
      hit.kind === 'entry'
        ? (payloadTextOf(hit.entry.data) ?? '(binary: in the export as base64)')
        : '',
  },
];

function rowColumns(columns: readonly GtColumnView[]): Column[] {
  return [
    ...COMMON,
    {
      key: 'op',
      title: 'Op',
      width: 80,
      text: (hit) => (hit.kind === 'row' ? String(hit.row.op) : ''),
    },
    {
      key: 'sequence',
      title: 'Sequence',
      width: 100,
      text: (hit) => (hit.kind === 'row' ? String(hit.row.sequence) : ''),
    },
    ...columns.map((column): Column => ({
      key: `c:${column.key}`,
      title: column.key,
      width: column.semantic === 'TIMESTAMP' ? 250 : 150,
      text: (hit) => {
        if (hit.kind !== 'row') return '';
        const at = hit.row.columns.findIndex((own) => own.key === column.key);
        return at < 0 ? '' : cellText(hit.row.cells[at] ?? 'null');
      },
    })),
  ];
}

export function SearchHitsTable({
  kind,
  hits,
  holes,
  jump,
  columns,
}: {
  kind: SearchHit['kind'];
  hits: readonly SearchHit[];
  holes: readonly MetHole[];
  /** The hole the skipped-damage notice last jumped to. */
  jump: HoleJump | null;
  /** The columns of the rows found so far (rows only). */
  columns: readonly GtColumnView[];
}) {
  const shown = kind === 'row' ? rowColumns(columns) : ENTRY_COLUMNS;
  const count = hits.length + holes.length;
  const { scroller, items, before, after, measure, scrollToIndex } = useVirtualRows(
    count,
    ROW_HEIGHT,
  );
  // `holes` grows in place: its length tells when a jump's hole has arrived.
  const indexOf = useCallback(
    (id: string) => searchHoleIndex(holes, id),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [holes, holes.length],
  );
  useHoleJump(jump, indexOf, scrollToIndex, scroller);
  const grid = rowsGrid(shown.map((column) => column.width));
  return (
    <div
      ref={scroller}
      className="rows-scroller"
      role="grid"
      aria-label="Search hits"
      aria-rowcount={count + 1}
      aria-colcount={shown.length}
    >
      <RowsGridHead grid={grid}>
        <RowsHeadLine grid={grid} rowIndex={1}>
          {shown.map((column) => (
            <span key={column.key} role="columnheader" className="mono">
              {column.title}
            </span>
          ))}
        </RowsHeadLine>
      </RowsGridHead>
      <div style={{ width: grid.width, paddingTop: before, paddingBottom: after }}>
        {items.map((virtual) => {
          const row = searchRowAt(virtual.index, hits, holes);
          if (row === undefined) return null;
          if (row.kind === 'hole')
            return (
              <HoleRow
                key={`hole ${virtual.index}`}
                hole={row.hole}
                at={{ index: virtual.index }}
                headerRows={1}
                measure={measure}
              />
            );
          const hit = row.row;
          return (
            <div
              key={virtual.index}
              role="row"
              aria-rowindex={virtual.index + 2}
              className="rows-line"
              style={{ gridTemplateColumns: grid.template, height: ROW_HEIGHT }}
            >
              {shown.map((column) => (
                <span key={column.key} role="gridcell" className="mono rows-cell">
                  {column.text(hit)}
                </span>
              ))}
            </div>
          );
        })}
      </div>
    </div>
  );
}
