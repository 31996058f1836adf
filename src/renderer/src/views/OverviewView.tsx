/**
 * Overview: every WAL prefix under the connection's root, Cairn's and GreptimeDB's, with its
 * columns filled in as each prefix is read (the fleet pass in the main process), sortable and
 * filterable; a Verify of every prefix (a background scrub) whose findings fill the Damaged
 * and State columns, and the progress of the app's own background verify (the State says what
 * was read whole and when: `unverified` until a verify has); a prefix's name opens it in Batches; and for the selected prefix the
 * live append-rate and ack-latency charts while the in-app load runs, and its garbage
 * collection.
 */
import { useMemo, useState } from 'react';
import { ErrorPanel } from '../components/ErrorPanel';
import { Pending } from '../components/Pending';
import { RelativeTime } from '../components/RelativeTime';
import { LiveChart } from './wal/LiveChart';
import { useLoadSamples, useSelectedPrefix } from './wal/use-wal';
import {
  FleetFilters,
  filterRows,
  NO_FLEET_FILTER,
  type FleetFilter,
} from './overview/FleetFilters';
import { FleetTable } from './overview/FleetTable';
import { sortRows, type FleetColumnKey, type FleetSort } from './overview/fleet-columns';
import { useFleet } from './overview/use-fleet';
import { ScrubControls } from './wal/ScrubControls';
import { BackgroundVerify } from './overview/BackgroundVerify';
import { GcControls } from './wal/GcControls';
import { useLiveWriter, useOperator } from './wal/use-wal';
import './wal/wal.css';
import { counted } from '../../../shared/plural';
import { PanelHeading } from '../components/PrefixName';
import { formatCount } from './format';

export function OverviewView() {
  const { connectionId, prefix } = useSelectedPrefix();
  const fleet = useFleet(connectionId);
  const [filter, setFilter] = useState<FleetFilter>(NO_FLEET_FILTER);
  const [sort, setSort] = useState<FleetSort>({ key: 'prefix', descending: false });
  const rows = fleet.data?.rows;
  const shown = useMemo(
    () => (rows === undefined ? [] : sortRows(filterRows(rows, filter), sort)),
    [rows, filter, sort],
  );
  const onSort = (key: FleetColumnKey) =>
    setSort((now) => ({ key, descending: now.key === key ? !now.descending : false }));
  const read = rows?.filter((row) => row.state !== 'pending').length ?? 0;
  return (
    <section aria-labelledby="overview-title" className="view">
      <header className="view-header">
        <h1 id="overview-title">Overview</h1>
      </header>
      {fleet.error && <ErrorPanel error={fleet.error} onRetry={() => void fleet.refetch()} />}
      {fleet.data?.error && (
        <p className="wal-warn" role="alert">
          Listing the prefixes failed ({fleet.data.error.code}): {fleet.data.error.message}
        </p>
      )}
      {fleet.isPending && <Pending what="Listing WAL prefixes" />}
      {rows !== undefined && rows.length === 0 && !fleet.data?.reading && (
        <p className="muted">
          No WAL prefix under this connection yet: write one with{' '}
          <span className="mono">cairn wal append</span>, or generate demo data in Connections.
        </p>
      )}
      {rows !== undefined && rows.length > 0 && (
        <>
          <p className="small muted" role="status" aria-label="Fleet progress">
            {fleet.data?.reading
              ? `Reading prefixes: ${formatCount(read)} of ${formatCount(rows.length)}`
              : counted(rows.length, 'prefix')}
            {fleet.data?.truncated && ' (the listing reached its bounds: more may exist)'}
            {fleet.data?.passEndedAtMs != null && !fleet.data.reading && (
              <>
                {' '}
                · last pass <RelativeTime atMs={fleet.data.passEndedAtMs} />
              </>
            )}
            {shown.length !== rows.length && ` · ${formatCount(shown.length)} shown`}
          </p>
          <ScrubControls connectionId={connectionId} prefix={null} />
          <BackgroundVerify connectionId={connectionId} />
          <FleetFilters filter={filter} onChange={setFilter} />
          <FleetTable rows={shown} selected={prefix} sort={sort} onSort={onSort} />
        </>
      )}
      {prefix !== null && <LoadChart connectionId={connectionId} prefix={prefix} />}
      {prefix !== null && rows?.find((row) => row.prefix === prefix)?.format === 'cairn-v1' && (
        <SelectedGc connectionId={connectionId} prefix={prefix} />
      )}
    </section>
  );
}

/** Garbage collection of the selected prefix, as Batches and Manifest offer it. */
function SelectedGc({ connectionId, prefix }: { connectionId: string; prefix: string }) {
  const operator = useOperator(connectionId);
  const writer = useLiveWriter(connectionId, prefix);
  return (
    <GcControls
      key={prefix}
      connectionId={connectionId}
      prefix={prefix}
      operator={operator}
      writerOpen={writer !== null}
    />
  );
}

function LoadChart({ connectionId, prefix }: { connectionId: string; prefix: string }) {
  const { samples, running } = useLoadSamples(connectionId, prefix);
  const times = useMemo(() => samples.map((sample) => sample.atMs / 1000), [samples]);
  const rate = useMemo(
    () => [
      {
        label: 'appends/s',
        color: '#3b82f6',
        values: samples.map((sample) => sample.appendsPerSecond),
      },
    ],
    [samples],
  );
  const latency = useMemo(
    () => [
      {
        label: 'mean ack ms',
        color: '#10b981',
        values: samples.map((sample) => sample.ackLatencyMs.mean),
      },
      {
        label: 'max ack ms',
        color: '#f59e0b',
        values: samples.map((sample) => sample.ackLatencyMs.max),
      },
    ],
    [samples],
  );
  if (samples.length === 0)
    return (
      <p className="muted small">
        Append-rate and latency charts appear while the in-app load generator runs on {prefix}{' '}
        (Batches view).
      </p>
    );
  const last = samples[samples.length - 1];
  return (
    <section aria-label="Load charts" className="wal-charts">
      <PanelHeading what="Load" prefix={prefix} />
      <p role="status" aria-label="Load status">
        {running ? 'Load running' : 'Load finished'} · {last && formatCount(last.acknowledged)}{' '}
        acknowledged · {last?.appendsPerSecond.toFixed(0)} appends/s
      </p>
      <LiveChart title="Append rate" times={times} series={rate} />
      <LiveChart title="Ack latency" times={times} series={latency} />
    </section>
  );
}
