/**
 * The Batches view of a GreptimeDB prefix: its chain as a sequence strip (the newest objects,
 * each instance's start object, orphans at their place, the reclaim boundary marked), the
 * instances that wrote it, and any damaged object; a prefix in the merged layout shows its
 * open verdict and writer runs instead (GreptimeMergedLog). Read-only: nothing here writes.
 */
import type { InspectView, WalObjectRef } from '../../../../shared/contract/wal';
import { formatBytes, formatCount } from '../format';
import { FailureNotice } from './OpenFailure';
import { GreptimeMergedLog } from './GreptimeMergedLog';
import { counted } from '../../../../shared/plural';
import { PanelHeading } from '../../components/PrefixName';

/** Objects shown in the strip: the newest ones, so a long chain stays one line. */
const STRIP_OBJECTS = 24;

type StripItem =
  | { readonly kind: 'chain' | 'orphan' | 'below'; readonly object: WalObjectRef }
  | { readonly kind: 'boundary'; readonly seq: bigint };

function stripOf(report: InspectView): StripItem[] {
  const greptime = report.greptimedb;
  const items: StripItem[] = [
    ...(greptime?.chainTail ?? []).map((object) => ({ kind: 'chain' as const, object })),
    ...report.orphans.map((object) => ({ kind: 'orphan' as const, object })),
    ...(greptime?.belowBoundary ?? []).map((object) => ({ kind: 'below' as const, object })),
  ].sort((a, b) => (a.object.seq < b.object.seq ? -1 : 1));
  const shown: StripItem[] = items.slice(-STRIP_OBJECTS);
  const boundary = greptime?.reclaimBoundary ?? 0n;
  const at = shown.findIndex((item) => item.kind !== 'boundary' && item.object.seq >= boundary);
  if (boundary > 0n && at >= 0) shown.splice(at, 0, { kind: 'boundary', seq: boundary });
  return shown;
}

const LABEL = { chain: 'chain', orphan: 'orphan', below: 'below boundary' } as const;

export function GreptimeChain({ report, prefix }: { report: InspectView; prefix: string }) {
  const greptime = report.greptimedb;
  if (greptime === null) return null;
  if (greptime.merged !== null)
    return <GreptimeMergedLog report={report} merged={greptime.merged} prefix={prefix} />;
  const starts = new Set(
    greptime.instances.flatMap((i) => (i.startSeq === null ? [] : [i.startSeq])),
  );
  return (
    <section aria-label="Sequence strip" className="wal-panel">
      <PanelHeading what="Chain" prefix={prefix} />
      <p className="muted small">
        A GreptimeDB datanode writes this prefix: the chain as a read-only recovery finds it.
        Orphans are never replayed; objects below the reclaim boundary were flushed and GreptimeDB
        deletes them.
      </p>
      {report.failure && <FailureNotice failure={report.failure} />}
      <ol className="strip" aria-label="Chain">
        {stripOf(report).map((item) =>
          item.kind === 'boundary' ? (
            <li key="boundary" className="strip-cell warn" aria-label="Reclaim boundary">
              <span className="strip-label">reclaim boundary</span>
              <span className="strip-value">seq {String(item.seq)}</span>
            </li>
          ) : (
            <li
              key={item.object.key}
              className={`strip-cell ${item.kind === 'chain' ? 'idle' : 'warn'}`}
              aria-label={`${LABEL[item.kind]} seq ${String(item.object.seq)}`}
              title={item.object.key}
            >
              <span className="strip-label">
                {starts.has(item.object.seq) ? 'start · ' : ''}
                {LABEL[item.kind]}
              </span>
              <span className="strip-value">
                seq {String(item.object.seq)} · epoch {String(item.object.epoch)}
              </span>
            </li>
          ),
        )}
      </ol>
      <dl className="facts">
        <dt>Tip</dt>
        <dd>
          {report.tip
            ? `seq ${String(report.tip.seq)} · epoch ${String(report.tip.epoch)}`
            : 'none'}
        </dd>
        <dt>Chain</dt>
        <dd>
          {counted(report.chainObjects, 'object')} · {formatBytes(report.chainBytes)} ·{' '}
          {counted(report.chainGaps, 'gap')}
        </dd>
        <dt>Reclaim boundary</dt>
        <dd>
          seq {String(greptime.reclaimBoundary)}
          {greptime.reclaimedLink ? ' (the objects below it are already deleted)' : ''}
        </dd>
        <dt>Orphans</dt>
        <dd>{formatCount(report.orphanCount)}</dd>
        {greptime.belowBoundaryCount > 0 && (
          <>
            <dt>Below the boundary</dt>
            <dd>{formatCount(greptime.belowBoundaryCount)}</dd>
          </>
        )}
      </dl>
      <table className="table" aria-label="Instances">
        <thead>
          <tr>
            <th>Instance epoch</th>
            <th>Start object</th>
            <th>Sequences</th>
            <th>Objects</th>
            <th>On the chain</th>
          </tr>
        </thead>
        <tbody>
          {greptime.instances.map((instance) => (
            <tr key={String(instance.epoch)}>
              <td className="mono">{String(instance.epoch)}</td>
              <td className="mono">
                {instance.startSeq === null ? 'deleted' : String(instance.startSeq)}
              </td>
              <td className="mono">
                {String(instance.firstSeq)}–{String(instance.lastSeq)}
              </td>
              <td>{instance.objects}</td>
              <td>{instance.onChain}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {greptime.instanceCount > greptime.instances.length && (
        <p className="muted small">
          The newest {greptime.instances.length} of {formatCount(greptime.instanceCount)} instances.
        </p>
      )}
      {greptime.damagedCount > greptime.damaged.length && (
        <p className="wal-warn small">
          {counted(greptime.damagedCount, 'damaged object')}; the first {greptime.damaged.length}:
        </p>
      )}
      {greptime.damaged.length > 0 && (
        <ul aria-label="Damaged objects" className="wal-warn">
          {greptime.damaged.map((damaged) => (
            <li key={damaged.key} className="mono small">
              {damaged.key}: {damaged.check}
              {damaged.detail === '' ? '' : ` (${damaged.detail})`}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
