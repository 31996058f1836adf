/**
 * Replay's Entries mode: the kept entries (and the hole rows of damaged segments skipped) in
 * a virtualized grid, in the order picked, narrowed by a text and a JSON-path filter, the
 * selected entry's payload beside it (decoded or raw), and the entries shown exported as
 * NDJSON. The filters, order and selection are the place's (a link carries them); a selected
 * entry a link names is scrolled into view once it arrives.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ReplayEntryView } from '../../../../../shared/contract/wal';
import type { ReplayHoleView } from '../../../../../shared/contract/wal-damage';
import { formatEntryId } from '../../../../../shared/id-notation';
import { downloadText } from '../../../components/download';
import { matchesJsonPath, parseJsonPath, payloadText } from '../replay-filter';
import { withHoleRows, type GridRow } from '../replay-hole-rows';
import { useHoleGrid } from '../holes/use-hole-grid';
import type { HoleJump } from '../holes/use-hole-jump';
import { regionName } from '../wal-words';
import { EntryPayload, payloadSummary, type PayloadShown } from './EntryPayload';
import { formatCount } from '../../format';

export interface EntriesFilters {
  readonly text: string;
  readonly path: string;
  readonly newestFirst: boolean;
}

interface ShownRow {
  readonly entry: ReplayEntryView;
  readonly text: string;
  /** What a decoded payload is (rows, or why not), shown instead of its text. */
  readonly summary: string | null;
}

export function EntriesMode({
  rows,
  holes,
  region,
  keep,
  filters,
  onFilters,
  selected,
  onSelect,
  jump,
}: {
  rows: readonly ReplayEntryView[];
  holes: readonly ReplayHoleView[];
  region: bigint | null;
  keep: number;
  filters: EntriesFilters;
  onFilters: (patch: Partial<EntriesFilters>) => void;
  selected: bigint | null;
  onSelect: (id: bigint) => void;
  /** The hole the skipped-damage notice last jumped to. */
  jump: HoleJump | null;
}) {
  const { text, path, newestFirst } = filters;
  const [shownAs, setShownAs] = useState<ReadonlyMap<bigint, PayloadShown>>(new Map());
  const pathFilter = useMemo(() => (path.trim() === '' ? null : parseJsonPath(path)), [path]);
  const shown = useMemo(() => {
    const decoded: ShownRow[] = rows.map((entry) => ({
      entry,
      text: payloadText(entry.data),
      summary: payloadSummary(entry),
    }));
    return decoded.filter(
      (row) =>
        (text === '' || row.text.includes(text)) &&
        (pathFilter === null ||
          pathFilter instanceof Error ||
          matchesJsonPath(pathFilter, row.text)),
    );
  }, [rows, text, pathFilter]);
  const gridRows = useMemo(
    () => withHoleRows(shown, holes, newestFirst, (row) => row.entry.id),
    [shown, holes, newestFirst],
  );
  const chosen = shown.find((row) => row.entry.id === selected)?.entry ?? null;

  const exportNdjson = () => {
    const ordered = newestFirst ? [...shown].reverse() : shown;
    const lines = ordered.map((row) =>
      JSON.stringify({
        region: region === null ? null : regionName(region),
        id: String(row.entry.id),
        size: row.entry.size,
        truncated: row.entry.size > row.entry.data.length,
        data: bytesToBase64(row.entry.data),
      }),
    );
    downloadText(
      `replay-${region === null ? 'region' : regionName(region).replace(':', '-')}.ndjson`,
      lines.join('\n') + (lines.length > 0 ? '\n' : ''),
    );
  };

  return (
    <section aria-label="Replayed entries" className="wal-panel">
      <div className="wal-replay-filters">
        <label>
          Text filter{' '}
          <input
            aria-label="Text filter"
            value={text}
            onChange={(event) => onFilters({ text: event.target.value })}
            autoComplete="off"
          />
        </label>
        <label>
          JSON path{' '}
          <input
            aria-label="JSON path filter"
            className="mono"
            placeholder="$.a.b == value"
            value={path}
            onChange={(event) => onFilters({ path: event.target.value })}
            autoComplete="off"
          />
        </label>
        <label className="inline">
          <input
            type="checkbox"
            checked={newestFirst}
            onChange={(event) => onFilters({ newestFirst: event.target.checked })}
          />{' '}
          Newest first
        </label>
        <button type="button" onClick={exportNdjson} disabled={shown.length === 0}>
          Export NDJSON
        </button>
        <span className="small muted" role="status" aria-label="Rows shown">
          {formatCount(shown.length)} shown of {formatCount(rows.length)} kept (newest {keep})
        </span>
      </div>
      {pathFilter instanceof Error && (
        <p role="alert" className="form-problem">
          JSON path: {pathFilter.message}
        </p>
      )}
      <div className="wal-replay-body">
        <ReplayGrid rows={gridRows} selected={selected} onSelect={onSelect} jump={jump} />
        {chosen && (
          <EntryPayload
            entry={chosen}
            shown={shownAs.get(chosen.id) ?? 'decoded'}
            onShow={(choice) => setShownAs(new Map(shownAs).set(chosen.id, choice))}
          />
        )}
      </div>
    </section>
  );
}

/** The kept rows, virtualized: only the visible ones are in the page. */
function ReplayGrid({
  rows,
  selected,
  onSelect,
  jump,
}: {
  rows: readonly GridRow<ShownRow>[];
  selected: bigint | null;
  onSelect: (id: bigint) => void;
  jump: HoleJump | null;
}) {
  const { scroller, virtualizer, rowsInView } = useHoleGrid(rows, {
    rowHeight: 28,
    overscan: 10,
    headerRows: 0,
    jump,
  });
  useScrollToSelected(rows, selected, (index) => virtualizer.scrollToIndex(index));
  return (
    <div
      ref={scroller}
      className="virtual-list wal-replay-list"
      role="grid"
      aria-label="Replayed entries list"
      aria-rowcount={rows.length}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {rowsInView((row, item) => (
          <div
            key={String(row.entry.id)}
            role="row"
            aria-rowindex={item.index + 1}
            aria-selected={row.entry.id === selected}
            className="virtual-row wal-replay-row"
            style={{ transform: `translateY(${item.start}px)`, height: item.size }}
            tabIndex={0}
            onClick={() => onSelect(row.entry.id)}
            onKeyDown={(event) => {
              if (event.key !== 'Enter' && event.key !== ' ') return;
              event.preventDefault();
              onSelect(row.entry.id);
            }}
          >
            <span role="gridcell" className="mono" title={`${String(row.entry.id)} (decimal)`}>
              {formatEntryId(row.entry.id)}
            </span>
            <span role="gridcell">{formatCount(row.entry.size)} B</span>
            <span role="gridcell" className="mono wal-payload-cell">
              {row.summary ?? row.text.slice(0, 120)}
            </span>
          </div>
        ))}
      </div>
    </div>
  );
}

/**
 * Scrolls to the selected entry the first time its row is in the grid (a link's selection, a
 * replay that reaches it later); a selection made by clicking is in view already.
 */
function useScrollToSelected(
  rows: readonly GridRow<ShownRow>[],
  selected: bigint | null,
  scrollTo: (index: number) => void,
): void {
  const scrolledTo = useRef<bigint | null>(null);
  useEffect(() => {
    if (selected === null || scrolledTo.current === selected) return;
    const index = rows.findIndex((row) => row.kind === 'entry' && row.row.entry.id === selected);
    if (index < 0) return;
    scrolledTo.current = selected;
    scrollTo(index);
  }, [rows, selected, scrollTo]);
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}
