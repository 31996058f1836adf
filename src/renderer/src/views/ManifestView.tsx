/**
 * Manifest: the WAL register of the selected prefix decoded - writer epoch and id, tail,
 * boundary, watermarks, region table - its version history, and the sealed directory (the
 * epoch history) with its byte budget gauge; each version in the history by what it changed.
 * View only: raw edits could break the protocol.
 * A prefix whose open would fail shows the typed error, the verify report of the object it
 * names and a raw download of that object. A GreptimeDB prefix has no register: it says so.
 */
import { useApiQuery } from '../api/hooks';
import { ErrorPanel } from '../components/ErrorPanel';
import { formatBytes } from './format';
import { OpenFailurePanel } from './wal/OpenFailure';
import { regionName, sealEpochs } from './wal/wal-words';
import type { ManifestView as Manifest } from '../../../shared/contract/wal';
import { GcControls } from './wal/GcControls';
import { PrefixScopedView, type PrefixBodyProps } from './wal/PrefixScopedView';
import { useLiveWriter, useOperator } from './wal/use-wal';
import './wal/wal.css';
import { formatEntryId } from '../../../shared/id-notation';
import { utcText } from '../../../shared/relative-time';
import { Pending } from '../components/Pending';
import { PanelHeading } from '../components/PrefixName';

export function ManifestView() {
  return <PrefixScopedView id="manifest" title="Manifest" Body={ManifestOf} />;
}

function ManifestOf(props: PrefixBodyProps) {
  return props.format === 'greptimedb-v1' ? (
    <NoRegister prefix={props.prefix} />
  ) : (
    <CairnManifest {...props} />
  );
}

/** GreptimeDB keeps its WAL's control state in its own metadata, not beside the objects. */
function NoRegister({ prefix }: { prefix: string }) {
  return (
    <section aria-label="No register" className="wal-panel">
      <PanelHeading what="Register" prefix={prefix} />
      <p>
        GreptimeDB keeps no register beside its WAL objects: there is no writer epoch, sealed
        directory, watermark or collection boundary to show here. Each object carries its own chain
        link and reclaim boundary instead; the Batches view shows them.
      </p>
    </section>
  );
}

function CairnManifest({ connectionId, prefix }: PrefixBodyProps) {
  const manifest = useApiQuery('wal.manifest', { connectionId, prefix });
  const inspect = useApiQuery('wal.inspect', { connectionId, prefix });
  const operator = useOperator(connectionId);
  const writer = useLiveWriter(connectionId, prefix);
  return (
    <div className="wal-main">
      <p className="muted small">
        View only: the register is changed by its writer, never edited by hand.
      </p>
      {inspect.data?.failure && (
        <OpenFailurePanel
          connectionId={connectionId}
          prefix={prefix}
          failure={inspect.data.failure}
        />
      )}
      {manifest.error && (
        <ErrorPanel error={manifest.error} onRetry={() => void manifest.refetch()} />
      )}
      {manifest.isPending && <Pending what="Reading the register" />}
      {manifest.data && (
        <>
          <RegisterFields manifest={manifest.data} prefix={prefix} />
          <SealedDirectory manifest={manifest.data} prefix={prefix} />
          <History manifest={manifest.data} prefix={prefix} />
          <GcControls
            connectionId={connectionId}
            prefix={prefix}
            operator={operator}
            writerOpen={writer !== null}
          />
        </>
      )}
    </div>
  );
}

function RegisterFields({ manifest, prefix }: { manifest: Manifest; prefix: string }) {
  const register = manifest.register;
  if (!register.exists)
    return (
      <p className="muted">No writer ever opened this prefix: the register does not exist yet.</p>
    );
  return (
    <section aria-label="Register" className="wal-panel">
      <PanelHeading what="Register" prefix={prefix}>
        {' '}
        · version {register.version}
      </PanelHeading>
      <dl className="facts">
        <dt>Writer epoch</dt>
        <dd className="mono" aria-label="Writer epoch">
          {String(register.writerEpoch)}
        </dd>
        <dt>Writer id</dt>
        <dd className="mono">{register.writerId}</dd>
        <dt>Tail hint</dt>
        <dd className="mono">
          {register.tail
            ? `seq ${String(register.tail.seq)} · epoch ${String(register.tail.epoch)}`
            : 'none'}
        </dd>
        <dt>Boundary</dt>
        <dd className="mono">{String(register.boundary)}</dd>
        <dt>Watermarks</dt>
        <dd className="mono" aria-label="Watermarks">
          {register.watermarks.length === 0
            ? 'none'
            : register.watermarks
                .map((mark) => `${regionName(mark.regionId)} ≤ ${formatEntryId(mark.watermark)}`)
                .join(', ')}
        </dd>
        <dt>Region table</dt>
        <dd className="mono">
          {register.regions.length === 0
            ? 'empty'
            : register.regions
                .map(
                  (region) =>
                    `${regionName(region.regionId)} (created ${utcText(region.createdAtMs)})`,
                )
                .join(', ')}
        </dd>
        {Object.entries(register.otherFields).map(([name, value]) => (
          <div key={name}>
            <dt className="mono">{name}</dt>
            <dd className="mono">{value.slice(0, 200)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function SealedDirectory({ manifest, prefix }: { manifest: Manifest; prefix: string }) {
  const { sealedDirectoryBytes: used, sealedDirectoryBudget: budget } = manifest;
  return (
    <section aria-label="Sealed directory" className="wal-panel">
      <PanelHeading what="Sealed epochs" prefix={prefix} />
      <div className="wal-gauge">
        <meter
          aria-label="Sealed directory budget"
          min={0}
          max={budget}
          low={budget * 0.6}
          high={budget * 0.85}
          optimum={0}
          value={used}
        />
        <span className="small">
          {formatBytes(used)} of {formatBytes(budget)} ({((used / budget) * 100).toFixed(1)}%)
        </span>
      </div>
      <table className="table" aria-label="Sealed epochs">
        <thead>
          <tr>
            <th>Epochs</th>
            <th>Last object</th>
            <th>Reason</th>
          </tr>
        </thead>
        <tbody>
          {manifest.register.sealed.map((record) => (
            <tr key={`${String(record.firstEpoch)}-${String(record.lastEpoch)}`}>
              <td className="mono">{sealEpochs(record)}</td>
              <td className="mono">
                {record.lastSeq === null ? 'none on the chain' : `seq ${String(record.lastSeq)}`}
              </td>
              <td>{record.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {manifest.register.sealed.length === 0 && (
        <p className="muted small">No epoch has ended yet.</p>
      )}
    </section>
  );
}

/** Each version by what it changed (not every field of every version), newest first. */
function History({ manifest, prefix }: { manifest: Manifest; prefix: string }) {
  return (
    <section aria-label="Version history" className="wal-panel">
      <PanelHeading what="Version history" prefix={prefix} />
      <table className="table" aria-label="Register versions">
        <thead>
          <tr>
            <th>Version</th>
            <th>Writer epoch</th>
            <th>What changed</th>
          </tr>
        </thead>
        <tbody>
          {manifest.history.map((entry) => (
            <tr key={entry.version}>
              <td className="mono">{entry.version}</td>
              <td className="mono">
                {entry.writerEpoch === null ? 'malformed' : String(entry.writerEpoch)}
              </td>
              <td>
                {entry.first && (
                  <span className="muted small">oldest version kept, as written: </span>
                )}
                {entry.changes.length === 0 ? (
                  <span className="muted small">no field changed</span>
                ) : (
                  <ul
                    className="wal-changes mono small"
                    aria-label={`Changes of version ${entry.version}`}
                  >
                    {entry.changes.map((change, at) => (
                      <li key={at} title={change.field}>
                        {change.text}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
