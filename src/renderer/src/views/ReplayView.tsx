/**
 * Replay: stream one region of the selected prefix from an id (read-only) with progress,
 * pause, resume and cancel; the newest N entries stay on screen (bounded), in the order the
 * user picks; a text and a JSON-path filter; the selected entry's payload decoded or raw; the
 * entries on screen exported as NDJSON; and a Rows mode showing the rows of GreptimeDB
 * `WalEntry` payloads (views/wal/replay). A damaged segment the replay skipped is a hole row
 * where it was met, and the status line counts them.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { parseEntryId, parseWalRegion, type ReplayEntryView } from '../../../shared/contract/wal';
import { formatEntryId } from '../../../shared/id-notation';
import { useUiStore } from '../state/ui-store';
import { downloadText } from '../components/download';
import { ErrorPanel } from '../components/ErrorPanel';
import { Segmented } from '../components/Segmented';
import { formText } from '../components/form-text';
import { EntryPayload, payloadSummary, type PayloadShown } from './wal/replay/EntryPayload';
import { RowsMode } from './wal/replay/RowsMode';
import { matchesJsonPath, parseJsonPath, payloadText } from './wal/replay-filter';
import { useReplay } from './wal/use-replay';
import { holeText, withHoleRows, type GridRow } from './wal/replay-hole-rows';
import type { ReplayHoleView } from '../../../shared/contract/wal-damage';
import { regionName } from './wal/wal-words';
import { PrefixScopedView } from './wal/PrefixScopedView';
import './wal/wal.css';

const KEEP_CHOICES = [100, 500, 1000, 5000] as const;

export function ReplayView() {
  return <PrefixScopedView id="replay" title="Replay" Body={ReplayOf} />;
}

function ReplayOf({ connectionId, prefix }: { connectionId: string; prefix: string }) {
  const [keep, setKeep] = useState<number>(1000);
  const replay = useReplay(keep);
  const [problem, setProblem] = useState<string | null>(null);
  const [region, setRegion] = useState<bigint | null>(null);
  const [fromId, setFromId] = useState(1n);
  const [mode, setMode] = useState<'entries' | 'rows'>('entries');
  // A region picked elsewhere (Regions' "Replay", a link) fills the form; the last one
  // replayed goes back into the place, so the link names it.
  const routeRegion = useUiStore((state) => state.region);
  const select = useUiStore((state) => state.select);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsedRegion = parseWalRegion(formText(form, 'region'));
    const fromId = parseEntryId(formText(form, 'from') || '1');
    const rateText = formText(form, 'rate');
    const rate =
      rateText === ''
        ? undefined
        : /^\d{1,7}$/.test(rateText) && Number(rateText) > 0
          ? Number(rateText)
          : null;
    if (parsedRegion === null)
      return setProblem('region: must be tableId:regionNumber or a decimal u64');
    if (fromId === null) return setProblem('from: must be seq:position or a decimal u64 entry id');
    if (rate === null) return setProblem('pace: must be a whole number of entries per second');
    setProblem(null);
    setRegion(parsedRegion);
    setFromId(fromId);
    select({ region: regionName(parsedRegion) });
    void replay.start({ connectionId, prefix, region: parsedRegion, fromId, ratePerSecond: rate });
  };

  const progress = replay.progress;
  const active = progress?.state === 'running' || progress?.state === 'paused';
  return (
    <div className="wal-main">
      <form className="wal-replay-form" aria-label="Replay a region" onSubmit={submit} noValidate>
        <label>
          Region{' '}
          <input
            name="region"
            className="mono"
            placeholder="1:1"
            defaultValue={routeRegion ?? '1:1'}
            autoComplete="off"
          />
        </label>
        <label>
          From id{' '}
          <input
            name="from"
            className="mono"
            defaultValue="0:1"
            title="seq:position or a decimal u64"
            autoComplete="off"
          />
        </label>
        <label>
          Pace (entries/s){' '}
          <input name="rate" inputMode="numeric" placeholder="unpaced" autoComplete="off" />
        </label>
        <label>
          Keep newest
          <select
            aria-label="Keep newest"
            value={keep}
            onChange={(event) => setKeep(Number(event.target.value))}
          >
            {KEEP_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary">
          Start replay
        </button>
        <button
          type="button"
          disabled={progress?.state !== 'running'}
          onClick={() => void replay.pause()}
        >
          Pause
        </button>
        <button
          type="button"
          disabled={progress?.state !== 'paused'}
          onClick={() => void replay.resume()}
        >
          Resume
        </button>
        <button type="button" disabled={!active} onClick={() => void replay.cancel()}>
          Cancel
        </button>
      </form>
      {problem && (
        <p role="alert" className="form-problem">
          {problem}
        </p>
      )}
      {replay.error && <ErrorPanel error={replay.error} />}
      {progress && <ReplayProgressBar progress={progress} />}
      {progress?.error && (
        <ErrorPanel error={{ name: progress.error.code, message: progress.error.message }} />
      )}
      <Segmented
        label="Replay shows"
        choices={[
          ['entries', 'Entries'],
          ['rows', 'Rows'],
        ]}
        value={mode}
        onChange={setMode}
      />
      {mode === 'rows' && region !== null ? (
        <RowsMode entries={replay.rows} replayed={{ prefix, region, fromId }} />
      ) : (
        <ReplayRows rows={replay.rows} holes={replay.holes} region={region} keep={keep} />
      )}
    </div>
  );
}

function ReplayProgressBar({
  progress,
}: {
  progress: NonNullable<ReturnType<typeof useReplay>['progress']>;
}) {
  // Ids are not dense across objects, so progress is shown as ids reached of the latest id.
  const fraction =
    progress.latestId === 0n ? 1 : Number((progress.lastId * 1000n) / progress.latestId) / 1000;
  return (
    <div className="wal-replay-progress">
      <progress
        aria-label="Replay progress"
        max={1}
        value={progress.state === 'finished' ? 1 : fraction}
      />
      <span role="status" aria-label="Replay status">
        {progress.state} · {progress.delivered.toLocaleString()} entries
        {progress.holes > 0 && (
          <span className="wal-warn">
            {' '}
            · {progress.holes.toLocaleString()} damaged segment{progress.holes === 1 ? '' : 's'}{' '}
            skipped
          </span>
        )}{' '}
        · last id {formatEntryId(progress.lastId)} of {formatEntryId(progress.latestId)}
        {progress.cancelReason !== null && ` · ${progress.cancelReason}`}
      </span>
    </div>
  );
}

interface ShownRow {
  readonly entry: ReplayEntryView;
  readonly text: string;
  /** What a decoded payload is (rows, or why not), shown instead of its text. */
  readonly summary: string | null;
}

function ReplayRows({
  rows,
  holes,
  region,
  keep,
}: {
  rows: readonly ReplayEntryView[];
  holes: readonly ReplayHoleView[];
  region: bigint | null;
  keep: number;
}) {
  const [text, setText] = useState('');
  const [path, setPath] = useState('');
  const [newestFirst, setNewestFirst] = useState(true);
  const [selected, setSelected] = useState<bigint | null>(null);
  const [shownAs, setShownAs] = useState<ReadonlyMap<bigint, PayloadShown>>(new Map());
  const pathFilter = useMemo(() => (path.trim() === '' ? null : parseJsonPath(path)), [path]);
  const shown = useMemo(() => {
    const decoded: ShownRow[] = rows.map((entry) => ({
      entry,
      text: payloadText(entry.data),
      summary: payloadSummary(entry),
    }));
    const filtered = decoded.filter(
      (row) =>
        (text === '' || row.text.includes(text)) &&
        (pathFilter === null ||
          pathFilter instanceof Error ||
          matchesJsonPath(pathFilter, row.text)),
    );
    return filtered;
  }, [rows, text, pathFilter]);
  const gridRows = useMemo(
    () => withHoleRows(shown, holes, newestFirst),
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
            onChange={(event) => setText(event.target.value)}
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
            onChange={(event) => setPath(event.target.value)}
            autoComplete="off"
          />
        </label>
        <label className="inline">
          <input
            type="checkbox"
            checked={newestFirst}
            onChange={(event) => setNewestFirst(event.target.checked)}
          />{' '}
          Newest first
        </label>
        <button type="button" onClick={exportNdjson} disabled={shown.length === 0}>
          Export NDJSON
        </button>
        <span className="small muted" role="status" aria-label="Rows shown">
          {shown.length.toLocaleString()} shown of {rows.length.toLocaleString()} kept (newest{' '}
          {keep})
        </span>
      </div>
      {pathFilter instanceof Error && (
        <p role="alert" className="form-problem">
          JSON path: {pathFilter.message}
        </p>
      )}
      <div className="wal-replay-body">
        <ReplayGrid rows={gridRows} selected={selected} onSelect={setSelected} />
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
}: {
  rows: readonly GridRow<ShownRow>[];
  selected: bigint | null;
  onSelect: (id: bigint) => void;
}) {
  const scroller = useRef<HTMLDivElement | null>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 28,
    overscan: 10,
  });
  return (
    <div
      ref={scroller}
      className="virtual-list wal-replay-list"
      role="grid"
      aria-label="Replayed entries list"
      aria-rowcount={rows.length}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const gridRow = rows[item.index];
          if (!gridRow) return null;
          if (gridRow.kind === 'hole')
            return (
              <div
                key={`hole ${gridRow.hole.key} ${String(gridRow.hole.regionId)}`}
                role="row"
                aria-rowindex={item.index + 1}
                aria-label="Hole"
                className="virtual-row wal-replay-row wal-hole-row"
                style={{ transform: `translateY(${item.start}px)`, height: item.size }}
              >
                <span role="gridcell">{holeText(gridRow.hole)}</span>
              </div>
            );
          const row = gridRow.row;
          return (
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
              <span role="gridcell">{row.entry.size.toLocaleString()} B</span>
              <span role="gridcell" className="mono wal-payload-cell">
                {row.summary ?? row.text.slice(0, 120)}
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}
