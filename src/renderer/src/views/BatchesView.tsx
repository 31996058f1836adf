/**
 * Batches: the sequence strip of a writer this app holds on the selected prefix, live from
 * `wal.writer.state` events, with the in-app load generator (operator mode); for a prefix not
 * written here, the read-only inspection of its chain, orphans, gaps and excluded objects;
 * for a GreptimeDB prefix, its chain with instances, orphans and the reclaim boundary.
 */
import type { InspectView } from '../../../shared/contract/wal';
import { useApiQuery, useRefreshInterval } from '../api/hooks';
import { ErrorPanel } from '../components/ErrorPanel';
import { LoadControls } from './wal/LoadControls';
import { MetricsExport } from './wal/MetricsExport';
import { ObjectTable } from './wal/ObjectTable';
import { FailureNotice } from './wal/OpenFailure';
import { SequenceStrip } from './wal/SequenceStrip';
import { useLiveWriter, useOperator } from './wal/use-wal';
import { WriterControls } from './wal/WriterControls';
import { GreptimeChain } from './wal/GreptimeChain';
import { OpenProgressNote, progressInterval } from './wal/OpenProgress';
import { PrefixScopedView, type PrefixBodyProps } from './wal/PrefixScopedView';
import './wal/wal.css';

export function BatchesView() {
  return <PrefixScopedView id="batches" title="Batches" Body={BatchesOf} />;
}

function BatchesOf(props: PrefixBodyProps) {
  return props.format === 'greptimedb-v1' ? (
    <GreptimeBatches {...props} />
  ) : (
    <CairnBatches {...props} />
  );
}

function GreptimeBatches({ connectionId, prefix, format }: PrefixBodyProps) {
  const inspect = useApiQuery(
    'wal.inspect',
    { connectionId, prefix },
    { refetchInterval: progressInterval<InspectView>(useRefreshInterval()) },
  );
  return (
    <div className="wal-main">
      <OpenProgressNote progress={inspect.data?.progress} />
      {inspect.error && <ErrorPanel error={inspect.error} onRetry={() => void inspect.refetch()} />}
      {inspect.data && <GreptimeChain report={inspect.data} />}
      <ObjectTable connectionId={connectionId} prefix={prefix} live={false} format={format} />
    </div>
  );
}

function CairnBatches({ connectionId, prefix, format }: PrefixBodyProps) {
  const operator = useOperator(connectionId);
  const writer = useLiveWriter(connectionId, prefix);
  const refetchInterval = useRefreshInterval();
  const inspect = useApiQuery(
    'wal.inspect',
    { connectionId, prefix },
    { enabled: writer === null, refetchInterval: progressInterval<InspectView>(refetchInterval) },
  );
  return (
    <div className="wal-main">
      <WriterControls
        connectionId={connectionId}
        prefix={prefix}
        writer={writer}
        inspect={inspect.data}
        operator={operator}
      />
      {writer !== null ? (
        <>
          <SequenceStrip writer={writer} />
          {operator && <LoadControls connectionId={connectionId} prefix={prefix} writer={writer} />}
          <MetricsExport connectionId={connectionId} prefix={prefix} />
        </>
      ) : (
        <>
          {inspect.error && (
            <ErrorPanel error={inspect.error} onRetry={() => void inspect.refetch()} />
          )}
          <OpenProgressNote progress={inspect.data?.progress} />
          {inspect.data && (
            <section aria-label="Chain summary" className="wal-panel">
              <p className="muted small">
                Not written by this app: the chain as a read-only recovery finds it.
              </p>
              {inspect.data.failure && <FailureNotice failure={inspect.data.failure} />}
              <dl className="facts">
                <dt>Tip</dt>
                <dd>
                  {inspect.data.tip
                    ? `seq ${String(inspect.data.tip.seq)} · epoch ${String(inspect.data.tip.epoch)}`
                    : 'none'}
                </dd>
                <dt>Chain</dt>
                <dd>
                  {inspect.data.chainObjects.toLocaleString()} objects · {inspect.data.chainGaps}{' '}
                  gaps
                </dd>
                <dt>Orphans</dt>
                <dd>{inspect.data.orphanCount.toLocaleString()}</dd>
                <dt>Excluded (sealed epochs)</dt>
                <dd>{inspect.data.excludedCount.toLocaleString()}</dd>
                <dt>Missing (collected meanwhile)</dt>
                <dd>{inspect.data.missingCount.toLocaleString()}</dd>
                <dt>Next start</dt>
                <dd>
                  {inspect.data.nextSeq === null
                    ? 'sequences exhausted'
                    : `seq ${String(inspect.data.nextSeq)} (start gap above every listed object)`}
                </dd>
                <dt>Boundary</dt>
                <dd>{String(inspect.data.register.boundary)}</dd>
              </dl>
            </section>
          )}
        </>
      )}
      <ObjectTable
        connectionId={connectionId}
        prefix={prefix}
        live={writer !== null}
        format={format}
      />
    </div>
  );
}
