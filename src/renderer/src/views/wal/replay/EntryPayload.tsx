/**
 * One replayed entry's payload, decoded or raw as the user toggles it (the choice is kept per
 * entry by the caller): a `WalEntry` as its mutations (op, sequence, columns, rows; decoded
 * here from its bytes when first shown) and bulk entries (summary, rows, or why none); a payload that is not one as the reason and byte offset beside its bytes; JSON
 * and raw payloads as bytes (the payload viewer).
 */
import type { ReplayEntryView } from '../../../../../shared/contract/wal';
import type {
  GtBulkEntryTable,
  GtEntryTable,
  GtMutationTable,
} from '../../../../../shared/greptime/entry-table';
import { cellText } from '../../../../../shared/greptime/replay-rows';
import { EntryIdText } from '../../../components/IdText';
import { Segmented } from '../../../components/Segmented';
import { PayloadViewer } from '../../browser/PayloadViewer';
import { tablesOf } from './entry-tables';
import { counted } from '../../../../../shared/plural';

export type PayloadShown = 'decoded' | 'raw';

const plural = (count: number, noun: string): string => counted(count, noun);

/** Rows of one mutation shown in the panel; the Rows mode shows them all. */
const PANEL_ROWS = 200;

/** One mutation's (or decoded bulk entry's) op, sequence and rows. */
function RowsSection({ label, mutation }: { label: string; mutation: GtMutationTable }) {
  return (
    <section aria-label={label}>
      <p className="small">
        <span className={`badge ${mutation.op === 'PUT' ? 'ok' : 'warn'}`}>
          {String(mutation.op)}
        </span>{' '}
        sequence <span className="mono">{String(mutation.sequence)}</span> ·{' '}
        {plural(mutation.rows.length, 'row')}
      </p>
      <div className="entry-mutation-scroll">
        <table className="table">
          <thead>
            <tr>
              {mutation.columns.map((column) => (
                <th
                  key={column.key}
                  title={`${String(column.datatype)}, ${String(column.semantic)}`}
                >
                  {column.key}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {mutation.rows.slice(0, PANEL_ROWS).map((cells, row) => (
              <tr key={row}>
                {cells.map((cell, column) => (
                  <td key={column} className="mono">
                    {cell === 'null' ? 'null' : cellText(cell)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {mutation.rows.length > PANEL_ROWS && (
        <p className="muted small">The first {PANEL_ROWS} rows; the Rows mode shows every one.</p>
      )}
    </section>
  );
}

/** A bulk entry: its summary, then its Arrow batch's rows, or why it gives none. */
function BulkSection({ bulk, at }: { bulk: GtBulkEntryTable; at: number }) {
  const decoded = bulk.decoded;
  return (
    <div>
      <p className="small" aria-label={`Bulk entry ${at + 1}`}>
        Bulk entry: sequence <span className="mono">{String(bulk.sequence)}</span>, time{' '}
        <span className="mono">
          {String(bulk.minTs)}..{String(bulk.maxTs)}
        </span>{' '}
        (column {bulk.timestampIndex}),{' '}
        {bulk.arrowIpc
          ? `Arrow IPC: schema ${bulk.arrowIpc.schemaBytes} B, header ${bulk.arrowIpc.dataHeaderBytes} B, body ${bulk.arrowIpc.payloadBytes} B`
          : 'no body'}
      </p>
      {decoded !== null && !decoded.ok && (
        <p role="alert" className="wal-warn">
          Its Arrow body gives no rows: {decoded.failure.reason} ({decoded.failure.detail}); the Raw
          view shows the entry&apos;s bytes
        </p>
      )}
      {decoded?.ok === true && decoded.time.problem !== null && (
        <p role="alert" className="wal-warn">
          Time index: {decoded.time.problem}
        </p>
      )}
      {decoded?.ok === true && (
        <RowsSection label={`Bulk entry ${at + 1} rows`} mutation={decoded.table} />
      )}
    </div>
  );
}

function Mutations({ table }: { table: GtEntryTable }) {
  return (
    <div className="entry-mutations">
      {table.mutations.map((mutation, at) => (
        <RowsSection key={at} label={`Mutation ${at + 1}`} mutation={mutation} />
      ))}
      {table.bulk.map((bulk, at) => (
        <BulkSection key={`b${at}`} bulk={bulk} at={at} />
      ))}
    </div>
  );
}

/** One line on a decoded payload for the entries list; null for text and bytes (shown as such). */
export function payloadSummary(entry: ReplayEntryView): string | null {
  const payload = entry.payload;
  if (payload === undefined) return null;
  switch (payload.kind) {
    case 'wal-entry': {
      const { mutations, rows, bulk } = payload.summary;
      return `WalEntry · ${plural(mutations, 'mutation')} · ${plural(rows, 'row')}${bulk > 0 ? ` · ${bulk} bulk` : ''}`;
    }
    case 'not-wal-entry':
      return `not a WalEntry: ${payload.failure.reason} at byte ${payload.failure.offset}`;
    case 'json':
    case 'raw':
      return null;
    case 'not-decoded':
      return 'not decoded here (too large)';
  }
}

export function EntryPayload({
  entry,
  shown,
  onShow,
}: {
  entry: ReplayEntryView;
  shown: PayloadShown;
  onShow: (shown: PayloadShown) => void;
}) {
  const payload = entry.payload;
  const tables = tablesOf(entry);
  const failure =
    payload?.kind === 'not-wal-entry'
      ? payload.failure
      : tables?.ok === false
        ? tables.failure
        : null;
  const decodable = tables?.ok === true;
  const show = decodable ? shown : 'raw';
  return (
    <aside aria-label="Entry payload" className="wal-replay-payload">
      <h2 className="small">
        Entry <EntryIdText id={entry.id} />
      </h2>
      {decodable && (
        <Segmented
          label="Payload shown"
          choices={[
            ['decoded', 'Decoded'],
            ['raw', 'Raw'],
          ]}
          value={show}
          onChange={onShow}
        />
      )}
      {failure && (
        <p role="alert" className="wal-warn">
          Not a WalEntry: {failure.reason} at byte {failure.offset} ({failure.detail})
        </p>
      )}
      {show === 'decoded' && tables?.ok ? (
        <Mutations table={tables.table} />
      ) : (
        <PayloadViewer bytes={entry.data} totalSize={entry.size} />
      )}
    </aside>
  );
}
