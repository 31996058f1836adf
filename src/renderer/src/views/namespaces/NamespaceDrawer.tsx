/** One namespace in detail: config (pretty JSON), placement, timestamps, shard and owner; actions in operator mode. */
import type { ListedNamespace, ShardInfo } from '../../../../shared/contract/namespaces';
import { shardLabel } from '../../../../shared/contract/namespaces';
import { DeprecateDialog } from './DeprecateDialog';
import { describePlacement, formatUtc } from './namespace-filters';
import { PlacementDialog } from './PlacementDialog';

export interface NamespaceDrawerProps {
  readonly connectionId: string;
  readonly record: ListedNamespace;
  readonly owner: ShardInfo['owner'] | undefined;
  readonly operator: boolean;
  readonly onClose: () => void;
  readonly onTakeOwnership: (shard: number) => void;
}

function ownerText(owner: ShardInfo['owner'] | undefined): string {
  if (owner === undefined) return '…';
  if (owner === null) return 'none yet';
  return `node ${owner.nodeId} (epoch ${owner.ownerEpoch})`;
}

export function NamespaceDrawer({
  connectionId,
  record,
  owner,
  operator,
  onClose,
  onTakeOwnership,
}: NamespaceDrawerProps) {
  return (
    <aside className="inspector" aria-label="Namespace details">
      <header className="view-header">
        <h2 className="mono small">{record.name}</h2>
        <button type="button" onClick={onClose} aria-label="Close details">
          ×
        </button>
      </header>
      <dl className="facts">
        <dt>State</dt>
        <dd>{record.state}</dd>
        <dt>Origin</dt>
        <dd>{record.origin}</dd>
        <dt>Created</dt>
        <dd className="mono">{formatUtc(record.createdAt)}</dd>
        <dt>Last seen</dt>
        <dd className="mono">{formatUtc(record.lastSeen)}</dd>
        <dt>Placement</dt>
        <dd aria-label="Placement">{describePlacement(record.placement)}</dd>
        <dt>Shard</dt>
        <dd className="mono">{shardLabel(record.shard)}</dd>
        <dt>Owner</dt>
        <dd>{ownerText(owner)}</dd>
      </dl>
      {operator && (
        <div
          className="dialog-actions"
          role="group"
          aria-label="Namespace actions"
          style={{ justifyContent: 'flex-start', flexWrap: 'wrap' }}
        >
          <PlacementDialog
            connectionId={connectionId}
            record={record}
            onTakeOwnership={onTakeOwnership}
          />
          <DeprecateDialog
            connectionId={connectionId}
            record={record}
            onTakeOwnership={onTakeOwnership}
          />
          <button type="button" onClick={() => onTakeOwnership(record.shard)}>
            Take ownership of shard {shardLabel(record.shard)}…
          </button>
        </div>
      )}
      <h3 className="small">Config</h3>
      <pre className="payload-text mono" aria-label="Config">
        {JSON.stringify(record.config, null, 2)}
      </pre>
    </aside>
  );
}
