/**
 * Regions: per region of the selected prefix its entries, first / latest / durable id,
 * obsolete watermark, objects spanned, bytes, holes and the damaged entry ranges a scrub or a
 * replay found (each a hole every replay skips). With a writer opened in the app and
 * operator mode: obsolete up to an id, obsolete all, the region table, and a bulk obsolete of
 * the regions selected (or all). On a prefix this app does not write, it says so and offers
 * to open or take over the writer; on a GreptimeDB prefix, why no action applies.
 */
import { useState } from 'react';
import type { RegionRow } from '../../../shared/contract/wal';
import { useApiQuery, useRefreshInterval } from '../api/hooks';
import { formatEntryId } from '../../../shared/id-notation';
import { ChangeMarked } from '../components/ChangeMarked';
import { ErrorPanel } from '../components/ErrorPanel';
import { EntryIdText, RegionIdText } from '../components/IdText';
import { useUiStore } from '../state/ui-store';
import { formatBytes } from './format';
import { FailureNotice } from './wal/OpenFailure';
import { NamespaceActions, ObsoleteAllDialog, ObsoleteDialog } from './wal/RegionActions';
import { BulkObsoleteDialog } from './wal/BulkObsoleteDialog';
import { useLiveWriter, useOperator } from './wal/use-wal';
import { WriterControls } from './wal/WriterControls';
import { regionName } from './wal/wal-words';
import { PrefixScopedView, type PrefixBodyProps } from './wal/PrefixScopedView';
import './wal/wal.css';
import { Pending } from '../components/Pending';

export function RegionsView() {
  return <PrefixScopedView id="regions" title="Regions" Body={RegionsOf} />;
}

function RegionsOf({ connectionId, prefix, format }: PrefixBodyProps) {
  const operator = useOperator(connectionId);
  const greptime = format === 'greptimedb-v1';
  const writer = useLiveWriter(connectionId, prefix);
  const inspect = useApiQuery('wal.inspect', { connectionId, prefix });
  const refetchInterval = useRefreshInterval(writer !== null);
  const regions = useApiQuery('wal.regions', { connectionId, prefix }, { refetchInterval });
  const actions = writer !== null && operator;
  const readOnlyReason = regions.data?.readOnlyReason ?? null;
  const selectedRegion = useUiStore((state) => state.region);
  const showView = useUiStore((state) => state.showView);
  /** Regions ticked for a bulk obsolete, by id. */
  const [ticked, setTicked] = useState<ReadonlySet<bigint>>(new Set());
  const rows = regions.data?.regions ?? [];
  const tickedRows = rows.filter((row) => ticked.has(row.regionId));
  const allTicked = rows.length > 0 && tickedRows.length === rows.length;
  const tick = (region: bigint, on: boolean) => {
    const next = new Set(ticked);
    if (on) next.add(region);
    else next.delete(region);
    setTicked(next);
  };
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
      {regions.error && <ErrorPanel error={regions.error} onRetry={() => void regions.refetch()} />}
      {regions.isPending && <Pending what="Reading regions" />}
      {actions && rows.length > 0 && (
        <div className="wal-bulk-bar" role="group" aria-label="Bulk obsolete">
          <span className="small" role="status" aria-label="Regions selected">
            {tickedRows.length} of {rows.length} regions selected
          </span>
          <BulkObsoleteDialog
            connectionId={connectionId}
            prefix={prefix}
            regions={tickedRows}
            onDone={() => setTicked(new Set())}
          />
        </div>
      )}
      {regions.data && (
        <table className="table" aria-label={`Regions of ${prefix}`}>
          <thead>
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
              {actions && <th>Actions</th>}
              {actions && (
                <th>
                  {/* Last, so the columns before it stay where scripts and readers expect them. */}
                  <input
                    type="checkbox"
                    aria-label="Select all regions"
                    checked={allTicked}
                    onChange={(event) =>
                      setTicked(
                        new Set(event.target.checked ? rows.map((row) => row.regionId) : []),
                      )
                    }
                  />
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {regions.data.regions.map((region) => (
              <tr
                key={String(region.regionId)}
                aria-selected={regionName(region.regionId) === selectedRegion}
              >
                <th scope="row">
                  <RegionIdText region={region.regionId} />
                </th>
                <td>{region.entries.toLocaleString()}</td>
                <td>
                  <EntryIdText id={region.firstId} />
                </td>
                <td>
                  <EntryIdText id={region.latestId} />
                </td>
                <td>
                  <EntryIdText id={region.durableId} />
                  {region.handedOutId !== null && region.handedOutId !== region.durableId && (
                    <span className="muted small">
                      {' '}
                      (handed out <EntryIdText id={region.handedOutId} />)
                    </span>
                  )}
                </td>
                <ChangeMarked
                  as="td"
                  value={region.watermark}
                  label={`Watermark of ${regionName(region.regionId)}`}
                  describe={(before) =>
                    `moved from ${before === 0n ? 'none' : formatEntryId(before)}`
                  }
                >
                  <EntryIdText id={region.watermark} />
                </ChangeMarked>
                <td>{region.objects.toLocaleString()}</td>
                <td>{formatBytes(region.bytes)}</td>
                <td className={region.holes > 0 ? 'wal-warn' : undefined}>{region.holes}</td>
                <td className={(region.damage?.length ?? 0) > 0 ? 'wal-warn small' : undefined}>
                  <DamagedRanges damage={region.damage ?? []} />
                </td>
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
                    <ObsoleteAllDialog
                      connectionId={connectionId}
                      prefix={prefix}
                      region={region}
                    />
                  </td>
                )}
                {actions && (
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Select region ${regionName(region.regionId)}`}
                      checked={ticked.has(region.regionId)}
                      onChange={(event) => tick(region.regionId, event.target.checked)}
                    />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {regions.data?.regions.length === 0 && (
        <p className="muted">
          No region has entries or a watermark yet: append some with{' '}
          <span className="mono">cairn wal append</span>, or open a writer here and start the load
          generator in Batches (operator mode).
        </p>
      )}
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
