/**
 * Replay's Rows mode: the rows GreptimeDB wrote, from the kept entries whose payloads decoded
 * as a `WalEntry`, in a virtualized table with column filters and a UTC time range on the time
 * index, the selected entry's payload beside it (decoded or raw), and an export of the
 * filtered rows as NDJSON or CSV - the bytes `cairn wal replay --rows` prints for the same
 * filter, whose command is shown. The filters and the selection are the place's (a link
 * carries them).
 */
import { useMemo, useState } from 'react';
import type { ReplayEntryView } from '../../../../../shared/contract/wal';
import type { ReplayHoleView } from '../../../../../shared/contract/wal-damage';
import { rowsCsv, rowsNdjson, type ReplayRow } from '../../../../../shared/greptime/replay-rows';
import { formatEntryId, formatRegionId } from '../../../../../shared/id-notation';
import { downloadText } from '../../../components/download';
import { EntryPayload, type PayloadShown } from './EntryPayload';
import { RowsTable } from './RowsTable';
import { withHoleRows } from '../replay-hole-rows';
import type { HoleJump } from '../holes/use-hole-jump';
import { useStoreFlags } from './use-store-flags';
import {
  cliCommand,
  filteredItems,
  rowFilterOfInput,
  rowsModel,
  type RowsFilterInput,
} from './rows-model';
import { formatCount } from '../../format';

export interface ReplayedRange {
  readonly prefix: string;
  readonly region: bigint;
  readonly fromId: bigint;
}

export function RowsMode({
  entries,
  holes,
  jump,
  replayed,
  input,
  onInput,
  selected,
  onSelect,
}: {
  entries: readonly ReplayEntryView[];
  /** Damaged segments skipped: hole rows among the rows, never filtered away. */
  holes: readonly ReplayHoleView[];
  /** The hole the skipped-damage notice last jumped to. */
  jump: HoleJump | null;
  replayed: ReplayedRange;
  input: RowsFilterInput;
  onInput: (input: RowsFilterInput) => void;
  selected: bigint | null;
  onSelect: (id: bigint) => void;
}) {
  const [shown, setShown] = useState<ReadonlyMap<bigint, PayloadShown>>(new Map());
  const model = useMemo(() => rowsModel(entries, replayed.region), [entries, replayed.region]);
  const filter = useMemo(() => rowFilterOfInput(input), [input]);
  const items = useMemo(
    () => (filter instanceof Error ? model.items : filteredItems(model.items, filter)),
    [model, filter],
  );
  const gridItems = useMemo(
    () =>
      withHoleRows(items, holes, false, (item) =>
        item.kind === 'row' ? item.row.id : item.notice.id,
      ),
    [items, holes],
  );
  const rows = useMemo(
    () => items.flatMap((item): ReplayRow[] => (item.kind === 'row' ? [item.row] : [])),
    [items],
  );
  const chosen = entries.find((entry) => entry.id === selected) ?? null;
  const storeFlags = useStoreFlags();
  // The kept entries start at the first one still on screen: the CLI replays from there.
  const first = entries[0];
  const range = {
    prefix: replayed.prefix,
    region: formatRegionId(replayed.region),
    from: formatEntryId(first?.id ?? replayed.fromId),
  };
  const fileName = `rows-${range.region.replace(':', '-')}`;

  const setColumn = (key: string, text: string) =>
    onInput({ ...input, columns: { ...input.columns, [key]: text } });

  if (model.decodedEntries === 0 && model.items.length === 0 && holes.length === 0)
    return (
      <p className="muted" role="status" aria-label="Rows shown">
        No kept entry decoded as a GreptimeDB WalEntry: its payloads have no rows to show.
      </p>
    );
  return (
    <section aria-label="Rows" className="wal-panel">
      <div className="wal-replay-filters">
        {(
          [
            ['since', 'From', '2026-01-01T00:00:00Z'],
            ['until', 'To', 'exclusive'],
          ] as const
        ).map(([bound, title, placeholder]) => (
          <label key={bound}>
            {title} (UTC){' '}
            <input
              aria-label={`Rows ${title.toLowerCase()}`}
              className="mono"
              placeholder={placeholder}
              value={input[bound]}
              onChange={(event) => onInput({ ...input, [bound]: event.target.value })}
              autoComplete="off"
            />
          </label>
        ))}
        <button
          type="button"
          disabled={filter instanceof Error || rows.length === 0}
          onClick={() => downloadText(`${fileName}.ndjson`, rowsNdjson(rows))}
        >
          Export NDJSON
        </button>
        <button
          type="button"
          disabled={filter instanceof Error || rows.length === 0}
          onClick={() => downloadText(`${fileName}.csv`, rowsCsv(rows, model.columns), 'text/csv')}
        >
          Export CSV
        </button>
        <span className="small muted" role="status" aria-label="Rows shown">
          {formatCount(rows.length)} rows shown from {formatCount(model.decodedEntries)} decoded
          entries
        </span>
      </div>
      {filter instanceof Error ? (
        <p role="alert" className="form-problem">
          {filter.message}
        </p>
      ) : (
        <p className="small muted">
          Same rows:{' '}
          <code className="mono" aria-label="Same rows from the CLI">
            {cliCommand(range, filter, input, 'ndjson', storeFlags)}
          </code>
        </p>
      )}
      <div className="wal-replay-body">
        <RowsTable
          columns={model.columns}
          items={gridItems}
          jump={jump}
          filters={input.columns}
          onFilter={setColumn}
          selected={selected}
          onSelect={onSelect}
        />
        {chosen && (
          <EntryPayload
            entry={chosen}
            shown={shown.get(chosen.id) ?? 'decoded'}
            onShow={(choice) => setShown(new Map(shown).set(chosen.id, choice))}
          />
        )}
      </div>
    </section>
  );
}
