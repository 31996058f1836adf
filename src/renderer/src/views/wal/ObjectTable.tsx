/**
 * A prefix's objects by sequence, paged from the server and virtualized past a page (a prefix
 * of 100,000 objects scrolls without loading them all): chain, orphans and excluded objects
 * (Cairn's format) or objects below the reclaim boundary (GreptimeDB's), and the objects a
 * scrub or a replay found damaged (status `damaged` and the check that failed). A row opens its
 * object in the inspector (a click anywhere on it, or Enter on its sequence); "go to" scrolls
 * to an object, whatever page it is on, and opens it. Objects written since the last read are
 * marked new; objects a collection moved up the list are not.
 */
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import type { WalFormat, WalObjectRow } from '../../../../shared/contract/wal';
import type { OpenProgress } from '../../../../shared/contract/wal-pages';
import { api } from '../../api/client';
import { useRefreshInterval } from '../../api/hooks';
import { PagedTable } from '../../components/PagedTable';
import { useNewRows } from '../../components/use-changes';
import { formatBytes } from '../format';
import { GoToObject } from './GoToObject';
import { PROGRESS_POLL_MS } from './OpenProgress';
import { counted } from '../../../../shared/plural';
import { PanelHeading } from '../../components/PrefixName';

/** Rows a page of the table asks for. */
const PAGE = 200;

type StatusFilter = 'all' | 'damaged' | WalObjectRow['status'];

const FILTERS: Record<WalFormat, readonly StatusFilter[]> = {
  'cairn-v1': ['all', 'chain', 'orphan', 'excluded', 'damaged'],
  'greptimedb-v1': ['all', 'chain', 'orphan', 'below-boundary', 'damaged'],
};

/** `damaged · segment-crc` for a damaged object; its status otherwise. */
function statusText(row: WalObjectRow): string {
  return row.damage === undefined ? row.status : `damaged · ${row.damage.check}`;
}

function statusTitle(row: WalObjectRow): string | undefined {
  if (row.damage === undefined) return undefined;
  const detail = row.damage.detail === '' ? '' : ` (${row.damage.detail})`;
  return `${row.status} object; found by a ${row.damage.source}: ${row.damage.check} check failed${detail}`;
}

/** What the first page says of the whole list: its rows, its newest sequence, the open's progress. */
interface FirstPage {
  readonly rows: readonly WalObjectRow[];
  readonly newestSeq: bigint | null;
  readonly progress: OpenProgress;
}

/** The object "go to" found: its index in the filtered list, scrolled to and focused. */
interface Located {
  readonly index: number;
  readonly key: string;
  /** Its row took the focus: once per "go to", not each time a recycled row shows it again. */
  readonly focused: boolean;
}

export function ObjectTable({
  connectionId,
  prefix,
  live,
  format,
  openKey,
  onOpen,
}: {
  connectionId: string;
  prefix: string;
  live: boolean;
  format: WalFormat | null;
  /** The object shown in the inspector, if any. */
  openKey: string | null;
  onOpen: (key: string) => void;
}) {
  const [status, setStatus] = useState<StatusFilter>('all');
  const [first, setFirst] = useState<FirstPage | null>(null);
  const [located, setLocated] = useState<Located | null>(null);
  const refetchInterval = useRefreshInterval(live);
  const fetchPage = useCallback(
    async (offset: number, limit: number) => {
      const page = await api.call('wal.objects', { connectionId, prefix, status, offset, limit });
      if (offset === 0)
        setFirst({ rows: page.rows, newestSeq: page.newestSeq, progress: page.progress });
      return page;
    },
    [connectionId, prefix, status],
  );
  // Objects another process (or this app's writer) wrote since the last read are marked.
  const fresh = useNewRows(status, first?.rows, first?.newestSeq);
  const polling = first?.progress.done === false ? PROGRESS_POLL_MS : refetchInterval;
  const onLocatedFocused = useCallback(
    () => setLocated((before) => (before === null ? null : { ...before, focused: true })),
    [],
  );
  return (
    <section aria-label="Objects" className="wal-panel">
      <header className="wal-panel-header">
        <PanelHeading what="Objects" prefix={prefix} />
        <GoToObject
          connectionId={connectionId}
          prefix={prefix}
          status={status}
          onFound={({ index, row }) => {
            setLocated({ index, key: row.key, focused: false });
            onOpen(row.key);
          }}
        />
        <div role="tablist" aria-label="Object status" className="segmented">
          {FILTERS[format ?? 'cairn-v1'].map((candidate) => (
            <button
              key={candidate}
              type="button"
              role="tab"
              aria-selected={status === candidate}
              onClick={() => {
                setStatus(candidate);
                setLocated(null);
              }}
            >
              {candidate}
            </button>
          ))}
        </div>
      </header>
      <PagedTable
        queryKey={['wal.objects', connectionId, prefix, status]}
        fetchPage={fetchPage}
        pageSize={PAGE}
        refetchInterval={polling}
        label={`Objects of ${prefix}`}
        pendingText="Listing objects"
        columns={6}
        scrollToIndex={located?.index ?? null}
        rowKey={(row) => row.key}
        header={
          <tr>
            <th>Seq</th>
            <th>Epoch</th>
            <th>Status</th>
            <th>Size</th>
            <th>Segments</th>
            <th>Entries</th>
          </tr>
        }
        renderRow={(row) => (
          <ObjectRowView
            row={row}
            fresh={fresh.has(row.key)}
            open={row.key === openKey}
            located={row.key === located?.key}
            focusNow={row.key === located?.key && !located.focused}
            onFocused={onLocatedFocused}
            onOpen={onOpen}
          />
        )}
        empty={
          <p className="muted">
            {status === 'all'
              ? 'No objects under this prefix yet: write some with `cairn wal append`, or open a writer here and start the load generator (operator mode).'
              : `No ${status} objects: switch to "all" to see every object.`}
          </p>
        }
        footer={(page) => (
          <div className="wal-pager">
            <span className="small muted" role="status" aria-label="Chain gaps">
              {page.gaps === 0
                ? 'no gaps in the chain'
                : `${counted(page.gaps, 'gap')} in the chain`}
            </span>
            <span className="small muted">
              {page.total === 0 ? 'none' : counted(page.total, 'object')}
            </span>
          </div>
        )}
      />
    </section>
  );
}

/**
 * One row; memoized. In a long table the row is recycled (PagedTable): a scroll hands it
 * another object, so what it does acts on the object shown at the time.
 */
const ObjectRowView = memo(function ObjectRowView({
  row,
  fresh,
  open,
  located,
  focusNow,
  onFocused,
  onOpen,
}: {
  row: WalObjectRow;
  fresh: boolean;
  open: boolean;
  located: boolean;
  /** The row "go to" found, not focused yet. */
  focusNow: boolean;
  onFocused: () => void;
  onOpen: (key: string) => void;
}) {
  const sequence = useRef<HTMLButtonElement | null>(null);
  // The row "go to" found takes the focus once it is laid out (a long list scrolls to it first).
  useEffect(() => {
    if (!focusNow) return;
    sequence.current?.scrollIntoView({ block: 'center' });
    sequence.current?.focus();
    onFocused();
  }, [focusNow, onFocused]);
  return (
    <tr
      aria-selected={open}
      className={[
        row.status === 'chain' && row.damage === undefined ? '' : 'wal-warn',
        fresh ? 'changed' : '',
        located ? 'located' : '',
        'openable',
      ]
        .join(' ')
        .trim()}
      onClick={() => onOpen(row.key)}
    >
      <td className="mono" title={row.key}>
        <button
          type="button"
          className="link mono"
          aria-label={`Inspect object seq ${String(row.seq)}`}
          ref={sequence}
          onClick={(event) => {
            // The row's own click opens it too: once is enough.
            event.stopPropagation();
            onOpen(row.key);
          }}
        >
          {String(row.seq)}
        </button>
        {fresh && <span className="badge ok small"> new</span>}
      </td>
      <td className="mono">{String(row.epoch)}</td>
      <td title={statusTitle(row)}>{statusText(row)}</td>
      <td>{formatBytes(row.size)}</td>
      <td>{row.segments ?? '—'}</td>
      <td>{row.entries ?? '—'}</td>
    </tr>
  );
});
