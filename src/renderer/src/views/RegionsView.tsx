/**
 * Regions: per region of the selected prefix its entries, first / latest / durable id,
 * obsolete watermark, objects spanned, bytes and holes - a page at a time from the server,
 * virtualized past a page (a prefix of 300,000 regions). With a writer opened in the app and
 * operator mode: obsolete up to an id, obsolete all, and the region table. On a prefix this
 * app does not write, it says so and offers to open or take over the writer; on a GreptimeDB
 * prefix, why no action applies.
 */
import { memo, useCallback, useState } from 'react';
import type {
  InspectView,
  RegionRow,
  RegionsView as RegionsPage,
} from '../../../shared/contract/wal';
import { api } from '../api/client';
import { useApiQuery, useRefreshInterval } from '../api/hooks';
import { formatEntryId } from '../../../shared/id-notation';
import { ChangeMarked } from '../components/ChangeMarked';
import { EntryIdPlain, EntryIdText, RegionIdPlain, RegionIdText } from '../components/IdText';
import { PagedTable } from '../components/PagedTable';
import { useUiStore } from '../state/ui-store';
import { formatBytes } from './format';
import { FailureNotice } from './wal/OpenFailure';
import { NamespaceActions, ObsoleteAllDialog, ObsoleteDialog } from './wal/RegionActions';
import { useLiveWriter, useOperator } from './wal/use-wal';
import { WriterControls } from './wal/WriterControls';
import { regionName } from './wal/wal-words';
import { PrefixScopedView, type PrefixBodyProps } from './wal/PrefixScopedView';
import { OpenProgressNote, progressInterval, PROGRESS_POLL_MS } from './wal/OpenProgress';
import './wal/wal.css';

export function RegionsView() {
  return <PrefixScopedView id="regions" title="Regions" Body={RegionsOf} />;
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
      <PagedTable
        queryKey={['wal.regions', connectionId, prefix, writer !== null]}
        fetchPage={fetchPage}
        pageSize={REGION_PAGE}
        refetchInterval={polling}
        label={`Regions of ${prefix}`}
        pendingText="Reading regions"
        columns={actions ? 12 : 11}
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
            <th>Table</th>
            <th>Open</th>
            {actions && <th>Actions</th>}
          </tr>
        }
        renderRow={(region, _index, long) => (
          <RegionRowView
            region={region}
            long={long}
            selected={regionName(region.regionId) === selectedRegion}
            actions={actions}
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
              {page.total.toLocaleString()} regions · rows load as you scroll
            </p>
          ) : null
        }
      />
      {actions && <NamespaceActions connectionId={connectionId} prefix={prefix} />}
    </div>
  );
}

/** Rows a page of the Regions table asks for (a smaller page decodes in less of a frame). */
const REGION_PAGE = 200;

/**
 * One row; memoized (its props are the page's row object and plain values), so a scroll frame
 * renders only the rows it brings into view.
 */
const RegionRowView = memo(function RegionRowView({
  region,
  long,
  selected,
  actions,
  connectionId,
  prefix,
}: {
  region: RegionRow;
  /** In a long table ids are text with their decimal on hover (copy menus cost frames). */
  long: boolean;
  selected: boolean;
  actions: boolean;
  connectionId: string;
  prefix: string;
}) {
  const showView = useUiStore((state) => state.showView);
  const Id = long ? EntryIdPlain : EntryIdText;
  const Region = long ? RegionIdPlain : RegionIdText;
  return (
    <tr aria-selected={selected}>
      <th scope="row">
        <Region region={region.regionId} />
      </th>
      <td>{region.entries.toLocaleString()}</td>
      <td>
        <Id id={region.firstId} />
      </td>
      <td>
        <Id id={region.latestId} />
      </td>
      <td>
        <Id id={region.durableId} />
        {region.handedOutId !== null && region.handedOutId !== region.durableId && (
          <span className="muted small">
            {' '}
            (handed out <Id id={region.handedOutId} />)
          </span>
        )}
      </td>
      <ChangeMarked
        as="td"
        value={region.watermark}
        label={`Watermark of ${regionName(region.regionId)}`}
        describe={(before) => `moved from ${before === 0n ? 'none' : formatEntryId(before)}`}
      >
        <Id id={region.watermark} />
      </ChangeMarked>
      <td>{region.objects.toLocaleString()}</td>
      <td>{formatBytes(region.bytes)}</td>
      <td className={region.holes > 0 ? 'wal-warn' : undefined}>{region.holes}</td>
      <td>{region.listedInTable ? 'listed' : ''}</td>
      <td>
        <button
          type="button"
          className="link small"
          aria-label={`Replay region ${regionName(region.regionId)}`}
          onClick={() => showView('replay', { region: regionName(region.regionId) })}
        >
          Replay
        </button>
      </td>
      {actions && (
        <td className="wal-actions">
          <ObsoleteDialog connectionId={connectionId} prefix={prefix} region={region} />
          <ObsoleteAllDialog connectionId={connectionId} prefix={prefix} region={region} />
        </td>
      )}
    </tr>
  );
});
