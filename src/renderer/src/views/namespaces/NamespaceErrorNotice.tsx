/**
 * A failed namespace call, shown with its code and fields (ErrorPanel) and, for NotOwner, in
 * plain words with the way out: taking the shard, which fences the node that owns it.
 */
import type { ApiError } from '../../../../shared/api-error';
import { explainNotOwner, shardLabel } from '../../../../shared/contract/namespaces';
import { ErrorPanel } from '../../components/ErrorPanel';

export function NamespaceErrorNotice({
  error,
  onRetry,
  onTakeOwnership,
}: {
  error: ApiError;
  onRetry?: () => void;
  onTakeOwnership?: (shard: number) => void;
}) {
  const explanation = error.code === 'NotOwner' ? explainNotOwner(error.details) : null;
  const shard = error.details.shard;
  return (
    <div>
      {explanation && (
        <p role="note" aria-label="Why this was refused" className="form-problem">
          {explanation}
          {onTakeOwnership && typeof shard === 'number' && (
            <>
              {' '}
              <button type="button" className="link" onClick={() => onTakeOwnership(shard)}>
                Take ownership of shard {shardLabel(shard)}…
              </button>
            </>
          )}
        </p>
      )}
      <ErrorPanel error={error} onRetry={onRetry} />
    </div>
  );
}
