/**
 * Batches: the sequence strip of a writer this app holds on the selected prefix, live from
 * `wal.writer.state` events, with the in-app load generator (operator mode); for a prefix not
 * written here, the read-only inspection of its chain, orphans, gaps and excluded objects;
 * for a GreptimeDB prefix, its chain with instances, orphans and the reclaim boundary. Either
 * way a Verify of the prefix (a background scrub) marks the objects it finds damaged, and a
 * row of the object table opens that object in the inspector beside it; a Cairn prefix has
 * its garbage collection here too.
 */
import type { InspectView } from '../../../shared/contract/wal';
import { useApiQuery, useRefreshInterval } from '../api/hooks';
import { ErrorPanel } from '../components/ErrorPanel';
import { useUiStore } from '../state/ui-store';
import { countText } from './format';
import { ObjectInspector } from './browser/ObjectInspector';
import { GcControls } from './wal/GcControls';
import { LoadControls } from './wal/LoadControls';
import { MetricsExport } from './wal/MetricsExport';
import { ObjectTable } from './wal/ObjectTable';
import { FailureNotice } from './wal/OpenFailure';
import { SequenceStrip } from './wal/SequenceStrip';
import { useLiveWriter, useOperator } from './wal/use-wal';
import { WriterControls } from './wal/WriterControls';
import { GreptimeChain } from './wal/GreptimeChain';
import { GreptimePreflight } from './wal/GreptimePreflight';
import { OpenProgressNote, progressInterval } from './wal/OpenProgress';
import { PrefixScopedView, type PrefixBodyProps } from './wal/PrefixScopedView';
import { ScrubControls } from './wal/ScrubControls';
import { CoverageNote } from './wal/CoverageNote';
import './wal/wal.css';
import { PanelHeading } from '../components/PrefixName';

export function BatchesView() {
  return <PrefixScopedView id="batches" title="Batches" Body={BatchesOf} searchable />;
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
      <CoverageNote inspect={inspect.data} />
      <ScrubControls connectionId={connectionId} prefix={prefix} />
      <OpenProgressNote progress={inspect.data?.progress} />
      {inspect.error && <ErrorPanel error={inspect.error} onRetry={() => void inspect.refetch()} />}
      {inspect.data && <GreptimeChain report={inspect.data} prefix={prefix} />}
      <GreptimePreflight connectionId={connectionId} prefix={prefix} />
      <ObjectsAndInspector
        connectionId={connectionId}
        prefix={prefix}
        live={false}
        format={format}
      />
    </div>
  );
}

/**
 * The object table and, beside it, the inspector of the object a row opened (the place's
 * object: a link reopens it); an object of another prefix is not this table's.
 */
function ObjectsAndInspector(props: PrefixBodyProps & { live: boolean }) {
  const inspected = useUiStore((state) => state.inspected);
  const select = useUiStore((state) => state.select);
  const open = inspected?.startsWith(`${props.prefix}/`) ? inspected : null;
  return (
    <div className="wal-split">
      <ObjectTable {...props} openKey={open} onOpen={(key) => select({ inspected: key })} />
      {open !== null && (
        <ObjectInspector
          connectionId={props.connectionId}
          objectKey={open}
          onClose={() => select({ inspected: null })}
        />
      )}
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
      <CoverageNote inspect={inspect.data} />
      <ScrubControls connectionId={connectionId} prefix={prefix} />
      {writer !== null ? (
        <>
          <SequenceStrip writer={writer} prefix={prefix} />
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
              <PanelHeading what="Chain" prefix={prefix} />
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
                  {countText(inspect.data.chainObjects, 'object')} ·{' '}
                  {countText(inspect.data.chainGaps, 'gap')}
                </dd>
                <dt>Orphans</dt>
                <dd>{countText(inspect.data.orphanCount, 'object')}</dd>
                <dt>Excluded (sealed epochs)</dt>
                <dd>{countText(inspect.data.excludedCount, 'object')}</dd>
                <dt>Missing (collected meanwhile)</dt>
                <dd>{countText(inspect.data.missingCount, 'object')}</dd>
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
      <ObjectsAndInspector
        connectionId={connectionId}
        prefix={prefix}
        live={writer !== null}
        format={format}
      />
      <GcControls
        connectionId={connectionId}
        prefix={prefix}
        operator={operator}
        writerOpen={writer !== null}
      />
    </div>
  );
}
