/**
 * Replayed rows as a table: the fixed columns (entry id, op badge, sequence) and the schema's
 * columns with their semantic type marked (tag, field, time index), a filter box under each
 * header, and only the rows in view in the page (@tanstack/react-virtual). A notice takes a
 * row's place where an entry gave no rows, a hole row where a damaged segment was skipped.
 * Clicking a row or notice selects its entry.
 */
import type { GtColumnView } from '../../../../../shared/greptime/entry-table';
import { cellText } from '../../../../../shared/greptime/replay-rows';
import { formatEntryId } from '../../../../../shared/id-notation';
import type { RowsItem } from './rows-model';
import type { GridRow } from '../replay-hole-rows';
import { useHoleGrid } from '../holes/use-hole-grid';
import type { HoleJump } from '../holes/use-hole-jump';
import { RowsGridHead, RowsHeadLine, rowsGrid } from './RowsGridHead';
import './rows.css';

const ROW_HEIGHT = 28;
const FIXED = [
  { key: 'id', title: 'Entry', width: 100 },
  { key: 'op', title: 'Op', width: 90 },
  { key: 'sequence', title: 'Sequence', width: 110 },
] as const;

const SEMANTIC_MARKS: Readonly<Record<string, string>> = {
  TAG: 'tag',
  FIELD: 'field',
  TIMESTAMP: 'time index',
  // A bulk entry's columns but its time index, values past a schema: no semantic type given.
  '?': 'unmarked',
};

function widthOf(column: GtColumnView): number {
  return column.semantic === 'TIMESTAMP' ? 250 : 150;
}

function OpBadge({ op }: { op: string | number }) {
  const tone = op === 'PUT' ? 'ok' : 'warn';
  return <span className={`badge ${tone} op-badge`}>{String(op)}</span>;
}

export function RowsTable({
  columns,
  items,
  filters,
  onFilter,
  selected,
  onSelect,
  jump,
}: {
  columns: readonly GtColumnView[];
  items: readonly GridRow<RowsItem>[];
  filters: Readonly<Record<string, string>>;
  onFilter: (key: string, text: string) => void;
  selected: bigint | null;
  onSelect: (id: bigint) => void;
  jump: HoleJump | null;
}) {
  const { scroller, virtualizer, rowsInView } = useHoleGrid(items, {
    rowHeight: ROW_HEIGHT,
    overscan: 12,
    headerRows: 2,
    jump,
  });
  const grid = rowsGrid([...FIXED.map((f) => f.width), ...columns.map(widthOf)]);
  const { template, width } = grid;
  const mark = (column: GtColumnView): string =>
    SEMANTIC_MARKS[String(column.semantic)] ?? `semantic ${String(column.semantic)}`;
  return (
    <div
      ref={scroller}
      className="rows-scroller"
      role="grid"
      aria-label="Replayed rows"
      aria-rowcount={items.length + 2}
      aria-colcount={FIXED.length + columns.length}
    >
      <RowsGridHead grid={grid}>
        <RowsHeadLine grid={grid} rowIndex={1}>
          {FIXED.map((fixed) => (
            <span key={fixed.key} role="columnheader">
              {fixed.title}
            </span>
          ))}
          {columns.map((column) => (
            <span
              key={column.key}
              role="columnheader"
              title={`${column.name}: ${String(column.datatype)}, ${mark(column)}`}
            >
              <span className="mono">{column.key}</span>{' '}
              <span className={`semantic semantic-${String(column.semantic).toLowerCase()}`}>
                {mark(column)}
              </span>
            </span>
          ))}
        </RowsHeadLine>
        <RowsHeadLine grid={grid} rowIndex={2}>
          {[...FIXED.map((f) => f.key), ...columns.map((c) => c.key)].map((key) => (
            <span key={key} role="gridcell">
              <input
                aria-label={`Filter ${key}`}
                className="mono rows-filter"
                placeholder="contains, =, !="
                value={filters[key] ?? ''}
                onChange={(event) => onFilter(key, event.target.value)}
                autoComplete="off"
              />
            </span>
          ))}
        </RowsHeadLine>
      </RowsGridHead>
      <div style={{ height: virtualizer.getTotalSize(), width, position: 'relative' }}>
        {rowsInView((item, virtual) => {
          const id = item.kind === 'row' ? item.row.id : item.notice.id;
          const choose = () => onSelect(id);
          const common = {
            role: 'row',
            'aria-rowindex': virtual.index + 3,
            'aria-selected': id === selected,
            tabIndex: 0,
            onClick: choose,
            onKeyDown: (event: React.KeyboardEvent) => {
              if (event.key !== 'Enter' && event.key !== ' ') return;
              event.preventDefault();
              choose();
            },
            style: { transform: `translateY(${virtual.start}px)`, height: ROW_HEIGHT },
          } as const;
          if (item.kind === 'notice')
            return (
              <div key={`n${String(id)}`} {...common} className="virtual-row rows-notice">
                <span role="gridcell" className={item.notice.damaged ? 'wal-warn' : 'muted'}>
                  {item.notice.text}
                </span>
              </div>
            );
          const row = item.row;
          return (
            <div
              key={`${String(row.id)}/${String(row.sequence)}/${virtual.index}`}
              {...common}
              className="virtual-row rows-line"
              style={{ ...common.style, gridTemplateColumns: template }}
            >
              <span role="gridcell" className="mono" title={`${String(row.id)} (decimal)`}>
                {formatEntryId(row.id)}
              </span>
              <span role="gridcell">
                <OpBadge op={row.op} />
              </span>
              <span role="gridcell" className="mono">
                {String(row.sequence)}
              </span>
              {columns.map((column) => {
                const at = row.columns.findIndex((own) => own.key === column.key);
                const json = at < 0 ? null : (row.cells[at] ?? 'null');
                return (
                  <span
                    key={column.key}
                    role="gridcell"
                    className={`mono rows-cell${json === 'null' || json === null ? ' muted' : ''}`}
                  >
                    {json === null ? '' : json === 'null' ? 'null' : cellText(json)}
                  </span>
                );
              })}
            </div>
          );
        })}
      </div>
    </div>
  );
}
