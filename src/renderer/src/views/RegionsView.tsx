/**
 * Regions: per region of the selected prefix its entries, first / latest / durable id,
 * obsolete watermark, objects spanned, bytes, holes and the damaged entry ranges a scrub or a
 * replay found (each a hole every replay skips) - a page at a time from the server, virtualized
 * past a page (a prefix of 300,000 regions). With a writer opened in the app and operator
 * mode: obsolete up to an id, obsolete all, and a bulk obsolete of the regions selected (or all
 * the first page holds). On a prefix this app does not write, it says so and offers to open or
 * take over the writer, and (operator mode) to request an obsolete from the writer of another
 * process that holds it, without fencing it, with the requests and how long each waits; on a
 * GreptimeDB prefix, why no action applies.
 */
import { memo, useCallback, useState, type ReactNode } from 'react';
import type {
  InspectView,
  RegionRow,
  RegionsView as RegionsPage,
} from '../../../shared/contract/wal';
import { api } from '../api/client';
import { useApiQuery, useRefreshInterval } from '../api/hooks';
import { formatEntryId } from '../../../shared/id-notation';
import { ChangeMarked } from '../components/ChangeMarked';
import { EntryIdText, RegionIdText } from '../components/IdText';
import { plainEntryId, plainRegionId } from '../components/plain-id';
import { PagedTable } from '../components/PagedTable';
import { useUiStore } from '../state/ui-store';
import { formatBytes, formatCount } from './format';
import { FailureNotice } from './wal/OpenFailure';
import { NamespaceActions, ObsoleteAllDialog, ObsoleteDialog } from './wal/RegionActions';
import { BulkObsoleteDialog } from './wal/BulkObsoleteDialog';
import { WatermarkRequestsPanel } from './wal/watermark-requests/WatermarkRequestsPanel';
import { useLiveWriter, useOperator } from './wal/use-wal';
import { WriterControls } from './wal/WriterControls';
import { regionName } from './wal/wal-words';
import { PrefixScopedView, type PrefixBodyProps } from './wal/PrefixScopedView';
import { OpenProgressNote, progressInterval, PROGRESS_POLL_MS } from './wal/OpenProgress';
import './wal/wal.css';
import { counted } from '../../../shared/plural';
import { PanelHeading } from '../components/PrefixName';

export function RegionsView() {
  return <PrefixScopedView id="regions" title="Regions" Body={RegionsOf} searchable />;
}

function RegionsOf({ connectionId, prefix, format }: PrefixBodyProps) {
  const operator = useOperator(connectionId);
  const greptime = format === 'greptimedb-v1';
  const writer = useLiveWriter(connectionId, prefix);
  const refetchInterval = useRefreshInterval(writer !== null);
  const inspect = useApiQuery(
    'wal.inspect',
    { connectionId, prefix },
    { refetchInterval: progressInterval<InspectView>(refetchInterval) },
  );
  const actions = writer !== null && operator;
  const foreign = writer === null && !greptime && inspect.data?.register.exists === true;
  const requestsView = useApiQuery(
    'wal.obsolete.requests',
    { connectionId, prefix },
    { enabled: foreign },
  );
  /** Another process's writer holds the prefix and reads requests: obsolete by request. */
  const requests = foreign && operator && requestsView.data?.holderReads === true;
  const selectedRegion = useUiStore((state) => state.region);
  const [first, setFirst] = useState<RegionsPage | null>(null);
  const readOnlyReason = first?.readOnlyReason ?? null;
  const fetchPage = useCallback(
    async (offset: number, limit: number): Promise<RegionsPage & { rows: RegionRow[] }> => {
      const page = await api.call('wal.regions', { connectionId, prefix, offset, limit });
      if (offset === 0) setFirst(page);
      return { ...page, rows: page.regions };
    },
    [connectionId, prefix],
  );
  const polling = inspect.data?.progress.done === false ? PROGRESS_POLL_MS : refetchInterval;
  /** Regions ticked for a bulk obsolete, by id, as their rows were when ticked. */
  const [ticked, setTicked] = useState<ReadonlyMap<bigint, RegionRow>>(new Map());
  const firstRows = first?.regions ?? [];
  const tickedRows = [...ticked.values()];
  const allTicked = firstRows.length > 0 && firstRows.every((row) => ticked.has(row.regionId));
  const tick = useCallback((row: RegionRow, on: boolean) => {
    setTicked((before) => {
      const next = new Map(before);
      if (on) next.set(row.regionId, row);
      else next.delete(row.regionId);
      return next;
    });
  }, []);
  return (
    <div className="wal-main">
      {!greptime && (
        <WriterControls
          connectionId={connectionId}
          prefix={prefix}
          writer={writer}
          inspect={inspect.data}
          operator={operator}
        />
      )}
      <OpenProgressNote progress={inspect.data?.progress} />
      {readOnlyReason !== null && (
        <p className="muted small" role="note" aria-label="Why no region action">
          {readOnlyReason}
        </p>
      )}
      {writer === null && !greptime && (
        <p className="muted small">
          This app does not write this prefix
          {inspect.data?.register.exists ? ' (another process may)' : ''}: the table is a read-only
          recovery. Region actions need a writer opened here{operator ? '' : ' and operator mode'}.
        </p>
      )}
      {inspect.data?.failure && <FailureNotice failure={inspect.data.failure} />}
      {foreign && <WatermarkRequestsPanel connectionId={connectionId} prefix={prefix} />}
      <PanelHeading what="Regions" prefix={prefix} />
      {actions && firstRows.length > 0 && (
        <div className="wal-bulk-bar" role="group" aria-label="Bulk obsolete">
          <span className="small" role="status" aria-label="Regions selected">
            {tickedRows.length} of {formatCount(first?.total ?? firstRows.length)} regions selected
          </span>
          <BulkObsoleteDialog
            connectionId={connectionId}
            prefix={prefix}
            regions={tickedRows}
            onDone={() => setTicked(new Map())}
          />
        </div>
      )}
      <PagedTable
        queryKey={['wal.regions', connectionId, prefix, writer !== null]}
        fetchPage={fetchPage}
        pageSize={REGION_PAGE}
        refetchInterval={polling}
        label={`Regions of ${prefix}`}
        pendingText="Reading regions"
        columns={actions ? 14 : requests ? 13 : 12}
        rowKey={(region) => String(region.regionId)}
        header={
          <tr>
            <th>Region</th>
            <th>Entries</th>
            <th>First id</th>
            <th>Latest id</th>
            <th>Durable id</th>
            <th>Watermark</th>
            <th>Objects</th>
            <th>Bytes</th>
            <th>Holes</th>
            <th>Damage</th>
            <th>Table</th>
            <th>Open</th>
            {(actions || requests) && <th>Actions</th>}
            {actions && (
              <th>
                {/* Last, so the columns before it stay where scripts and readers expect them. */}
                <input
                  type="checkbox"
                  aria-label="Select all regions"
                  checked={allTicked}
                  onChange={(event) =>
                    setTicked(
                      new Map(
                        event.target.checked ? firstRows.map((row) => [row.regionId, row]) : [],
                      ),
                    )
                  }
                />
              </th>
            )}
          </tr>
        }
        renderRow={(region, _index, long) => (
          <RegionRowView
            region={region}
            long={long}
            selected={regionName(region.regionId) === selectedRegion}
            actions={actions}
            requests={requests}
            ticked={ticked.has(region.regionId)}
            onTick={tick}
            connectionId={connectionId}
            prefix={prefix}
          />
        )}
        empty={
          <p className="muted">
            No region has entries or a watermark yet: append some with{' '}
            <span className="mono">cairn wal append</span>, or open a writer here and start the load
            generator in Batches (operator mode).
          </p>
        }
        footer={(page) =>
          page.total > REGION_PAGE ? (
            <p className="muted small" role="status" aria-label="Region count">
              {counted(page.total, 'region')} · rows load as you scroll
            </p>
          ) : null
        }
      />
      {actions && <NamespaceActions connectionId={connectionId} prefix={prefix} />}
    </div>
  );
}

/** `ids 1500:17–1500:20 (segment-crc)` per damaged segment, its object's key on hover. */
function DamagedRanges({ damage }: { damage: NonNullable<RegionRow['damage']> }) {
  if (damage.length === 0) return null;
  return (
    <ul className="wal-damage-list" aria-label="Damaged entry ranges">
      {damage.map((range) => (
        <li key={range.key} title={range.key}>
          ids {formatEntryId(range.firstId)}–{formatEntryId(range.lastId)} ({range.check})
        </li>
      ))}
    </ul>
  );
}

/**
 * An entry id's cell (and what follows the id in it): in a long table the id is the cell's own
 * text with its decimal on the cell's hover - no element per id for a scroll frame to make.
 */
function IdCell({ id, long, children }: { id: bigint; long: boolean; children?: ReactNode }) {
  if (!long)
    return (
      <td>
        <EntryIdText id={id} />
        {children}
      </td>
    );
  const plain = plainEntryId(id);
  return (
    <td className={plain.className} title={plain.title}>
      {plain.children}
      {children}
    </td>
  );
}

/** An id inside a cell's text: plain in a long table, with its copy menu in a short one. */
function IdOf({ id, long }: { id: bigint; long: boolean }) {
  return long ? <span {...plainEntryId(id)} /> : <EntryIdText id={id} />;
}

/** Rows a page of the Regions table asks for (a smaller page decodes in less of a frame). */
const REGION_PAGE = 200;

/**
 * One row; memoized (its props are the page's row object and plain values). In a long table
 * the row is recycled (PagedTable): a scroll hands it another region, so nothing here may keep
 * a region in state - the watermark's change mark is per region, a dialog keeps the region it
 * opened on, a click acts on the region shown at the time.
 */
const RegionRowView = memo(function RegionRowView({
  region,
  long,
  selected,
  actions,
  requests,
  ticked,
  onTick,
  connectionId,
  prefix,
}: {
  region: RegionRow;
  /** In a long table ids are text with their decimal on hover (copy menus cost frames). */
  long: boolean;
  selected: boolean;
  actions: boolean;
  /** Offer a watermark request to the writer of another process. */
  requests: boolean;
  /** Selected for a bulk obsolete. */
  ticked: boolean;
  onTick: (region: RegionRow, on: boolean) => void;
  connectionId: string;
  prefix: string;
}) {
  const showView = useUiStore((state) => state.showView);
  const name = regionName(region.regionId);
  const damaged = (region.damage?.length ?? 0) > 0;
  const handedOut = region.handedOutId !== region.durableId ? region.handedOutId : null;
  return (
    <tr aria-selected={selected}>
      {long ? (
        <th scope="row" {...plainRegionId(region.regionId)} />
      ) : (
        <th scope="row">
          <RegionIdText region={region.regionId} />
        </th>
      )}
      <td>{formatCount(region.entries)}</td>
      <IdCell id={region.firstId} long={long} />
      <IdCell id={region.latestId} long={long} />
      <IdCell id={region.durableId} long={long}>
        {handedOut !== null && (
          <span className="muted small">
            {' '}
            (handed out <IdOf id={handedOut} long={long} />)
          </span>
        )}
      </IdCell>
      <ChangeMarked
        as="td"
        value={region.watermark}
        subject={region.regionId}
        label={`Watermark of ${name}`}
        describe={(before) => `moved from ${before === 0n ? 'none' : formatEntryId(before)}`}
        {...(long
          ? plainEntryId(region.watermark)
          : { children: <EntryIdText id={region.watermark} /> })}
      />
      <td>{formatCount(region.objects)}</td>
      <td>{formatBytes(region.bytes)}</td>
      <td className={region.holes > 0 ? 'wal-warn' : undefined}>{region.holes}</td>
      <td className={damaged ? 'wal-warn small' : undefined}>
        <DamagedRanges damage={region.damage ?? []} />
      </td>
      <td>{region.listedInTable ? 'listed' : ''}</td>
      <td>
        <button
          type="button"
          className="link small"
          aria-label={`Replay region ${name}`}
          onClick={() => showView('replay', { region: name })}
        >
          Replay
        </button>
      </td>
      {requests && (
        <td className="wal-actions">
          <ObsoleteDialog
            connectionId={connectionId}
            prefix={prefix}
            region={region}
            mode="request"
          />
        </td>
      )}
      {actions && (
        <td className="wal-actions">
          <ObsoleteDialog connectionId={connectionId} prefix={prefix} region={region} />
          <ObsoleteAllDialog connectionId={connectionId} prefix={prefix} region={region} />
        </td>
      )}
      {actions && (
        <td>
          <input
            type="checkbox"
            aria-label={`Select region ${name}`}
            checked={ticked}
            onChange={(event) => onTick(region, event.target.checked)}
          />
        </td>
      )}
    </tr>
  );
});
