/**
 * Overview: every WAL prefix of the connection (Cairn's, and GreptimeDB's with a read-only
 * badge) with its writer epoch, objects and bytes, tail
 * hint, whether a writer of this app holds it and its poisoned / failure state; and the live
 * append-rate and ack-latency chart while the in-app load generator runs.
 */
import { useMemo } from 'react';
import type { WalListedPrefix } from '../../../shared/contract/wal';
import { useApiQuery } from '../api/hooks';
import { ChangeMarked } from '../components/ChangeMarked';
import { ErrorPanel } from '../components/ErrorPanel';
import { Pending } from '../components/Pending';
import { useUiStore } from '../state/ui-store';
import { formatBytes } from './format';
import { FormatBadge } from './wal/FormatBadge';
import { LiveChart } from './wal/LiveChart';
import { useLiveWriter, useLoadSamples, useSelectedPrefix } from './wal/use-wal';
import './wal/wal.css';

export function OverviewView() {
  const { connectionId, prefix, prefixes } = useSelectedPrefix();
  return (
    <section aria-labelledby="overview-title" className="view">
      <header className="view-header">
        <h1 id="overview-title">Overview</h1>
      </header>
      {prefixes.error && (
        <ErrorPanel error={prefixes.error} onRetry={() => void prefixes.refetch()} />
      )}
      {prefixes.isPending && <Pending what="Listing WAL prefixes" />}
      {prefixes.data?.length === 0 && (
        <p className="muted">
          No WAL prefix under this connection yet: write one with{' '}
          <span className="mono">cairn wal append</span>, or generate demo data in Connections.
        </p>
      )}
      {prefixes.data && prefixes.data.length > 0 && (
        <table className="table" aria-label="WAL prefixes">
          <thead>
            <tr>
              <th>Prefix</th>
              <th>Writer epoch</th>
              <th>Objects</th>
              <th>Bytes</th>
              <th>Tail</th>
              <th>Writer</th>
              <th>State</th>
            </tr>
          </thead>
          <tbody>
            {prefixes.data.map((entry) => (
              <PrefixRow
                key={entry.prefix}
                connectionId={connectionId}
                entry={entry}
                selected={entry.prefix === prefix}
              />
            ))}
          </tbody>
        </table>
      )}
      {prefix !== null && <LoadChart connectionId={connectionId} prefix={prefix} />}
    </section>
  );
}

function PrefixRow({
  connectionId,
  entry,
  selected,
}: {
  connectionId: string;
  entry: WalListedPrefix;
  selected: boolean;
}) {
  const select = useUiStore((state) => state.selectWalPrefix);
  // A prefix written here shows the writer's live catalog; a recovery is read once.
  const inspect = useApiQuery('wal.inspect', { connectionId, prefix: entry.prefix });
  const writer = useLiveWriter(connectionId, entry.openInApp ? entry.prefix : null);
  const report = inspect.data;
  const greptime = entry.format === 'greptimedb-v1';
  const state = writer?.state.poisoned
    ? `poisoned: ${writer.state.poisoned.code}`
    : report?.failure
      ? `open fails: ${report.failure.code}`
      : inspect.error
        ? `error: ${inspect.error.code}`
        : report
          ? 'healthy'
          : null;
  return (
    <tr aria-selected={selected}>
      <th scope="row">
        <button type="button" className="link mono" onClick={() => select(entry.prefix)}>
          {entry.prefix}
        </button>{' '}
        <FormatBadge format={entry.format} />
      </th>
      <td className="mono">
        {greptime
          ? report?.tip
            ? `instance ${String(report.tip.epoch)}`
            : null
          : writer
            ? String(writer.state.epoch)
            : report
              ? report.register.exists
                ? String(report.register.writerEpoch)
                : 'none'
              : null}
      </td>
      <ChangeMarked
        as="td"
        label={`Objects of ${entry.prefix}`}
        value={writer ? writer.indexedObjects : (report?.chainObjects ?? null)}
        describe={(before) => `was ${before.toLocaleString()}`}
      >
        {writer
          ? `${writer.indexedObjects.toLocaleString()} indexed · ${writer.orphansAtOpen} orphans`
          : report
            ? `${report.chainObjects.toLocaleString()} chain · ${report.orphans.length} orphans`
            : null}
      </ChangeMarked>
      <td>
        {writer ? formatBytes(writer.indexedBytes) : report ? formatBytes(report.chainBytes) : null}
      </td>
      <td className="mono">
        {greptime && report?.tip
          ? `tip seq ${String(report.tip.seq)} · epoch ${String(report.tip.epoch)}`
          : report?.register.tail
            ? `seq ${String(report.register.tail.seq)} · epoch ${String(report.register.tail.epoch)}`
            : 'none'}
      </td>
      <td>
        {greptime
          ? 'GreptimeDB datanode (read-only here)'
          : entry.openInApp
            ? `open here${writer ? ` (epoch ${String(writer.state.epoch)})` : ''}`
            : 'not in this app'}
      </td>
      <td className={state === 'healthy' || state === null ? undefined : 'wal-warn'}>
        {state ?? <Pending what={`Reading ${entry.prefix}`} />}
      </td>
    </tr>
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
      <p role="status" aria-label="Load status">
        {running ? 'Load running' : 'Load finished'} · {last?.acknowledged.toLocaleString()}{' '}
        acknowledged · {last?.appendsPerSecond.toFixed(0)} appends/s
      </p>
      <LiveChart title="Append rate" times={times} series={rate} />
      <LiveChart title="Ack latency" times={times} series={latency} />
    </section>
  );
}
