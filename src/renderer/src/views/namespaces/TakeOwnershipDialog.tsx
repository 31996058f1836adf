/**
 * "Take shard ownership": this app's node becomes the shard's owner at the next owner epoch,
 * which fences the node that owned it. Confirmed by typing "shard NN".
 */
import type { ShardInfo } from '../../../../shared/contract/namespaces';
import { shardLabel } from '../../../../shared/contract/namespaces';
import { shardPhrase } from '../../../../shared/contract/confirmations';
import { useApiMutation } from '../../api/hooks';
import { useToasts } from '../../components/Toasts';
import { NAMESPACE_QUERIES } from './namespace-queries';
import { TypedConfirmDialog } from '../../components/TypedConfirmDialog';
import { NamespaceErrorNotice } from './NamespaceErrorNotice';

export interface TakeOwnershipDialogProps {
  readonly connectionId: string;
  /** The shard to take; null keeps the dialog closed. */
  readonly shard: number | null;
  readonly owner: ShardInfo['owner'] | undefined;
  readonly onClose: () => void;
}

function currentOwnerText(owner: ShardInfo['owner'] | undefined): string {
  if (owner === undefined) return 'Its owner is not known yet.';
  if (owner === null) return 'Nobody has written it yet.';
  return `It is owned by node ${owner.nodeId} (owner epoch ${owner.ownerEpoch}).`;
}

export function TakeOwnershipDialog({
  connectionId,
  shard,
  owner,
  onClose,
}: TakeOwnershipDialogProps) {
  const take = useApiMutation('namespaces.takeOwnership', NAMESPACE_QUERIES);
  const push = useToasts((state) => state.push);
  const label = shard === null ? '' : shardLabel(shard);

  const confirm = async (typed: string) => {
    if (shard === null) return false;
    try {
      const taken = await take.mutateAsync({ connectionId, shard, confirm: typed });
      push({
        tone: 'ok',
        title: `Shard ${label} is now owned by node ${taken.nodeId}`,
        description: `Owner epoch ${taken.ownerEpoch}.`,
      });
      return true;
    } catch {
      return false;
    }
  };

  return (
    <TypedConfirmDialog
      title={`Take ownership of shard ${label}`}
      phrase={shard === null ? '' : shardPhrase(shard)}
      actionLabel="Take ownership"
      open={shard !== null}
      onOpenChange={(next) => {
        if (!next) {
          take.reset();
          onClose();
        }
      }}
      pending={take.isPending}
      error={take.error}
      onConfirm={confirm}
      renderError={(error) => <NamespaceErrorNotice error={error} />}
    >
      <p>{currentOwnerText(owner)}</p>
      <p role="note" className="form-problem">
        Taking shard {label} makes this app its owner at a higher owner epoch. This{' '}
        <strong>fences</strong> {owner ? `node ${owner.nodeId}` : 'the other node'}: its writes to
        every namespace in this shard fail with NotOwner until it takes the shard back.
      </p>
    </TypedConfirmDialog>
  );
}
