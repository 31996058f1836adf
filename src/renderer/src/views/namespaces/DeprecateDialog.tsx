/** "Deprecate": active to deprecated, confirmed by typing the namespace's name. */
import { useState } from 'react';
import type { ListedNamespace } from '../../../../shared/contract/namespaces';
import { useApiMutation } from '../../api/hooks';
import { useToasts } from '../../components/Toasts';
import { NAMESPACE_QUERIES } from './namespace-queries';
import { TypedConfirmDialog } from '../../components/TypedConfirmDialog';
import { NamespaceErrorNotice } from './NamespaceErrorNotice';

export function DeprecateDialog(props: {
  connectionId: string;
  record: ListedNamespace;
  onTakeOwnership: (shard: number) => void;
}) {
  const { connectionId, record, onTakeOwnership } = props;
  const [open, setOpen] = useState(false);
  const deprecate = useApiMutation('namespaces.deprecate', NAMESPACE_QUERIES);
  const push = useToasts((state) => state.push);

  const confirm = async (typed: string) => {
    try {
      await deprecate.mutateAsync({ connectionId, name: record.name, confirm: typed });
    } catch {
      return false; // The mutation's error is shown in the dialog.
    }
    push({
      tone: 'ok',
      title: `Namespace "${record.name}" deprecated`,
      description: 'Its history is kept.',
    });
    return true;
  };

  return (
    <TypedConfirmDialog
      title={`Deprecate ${record.name}`}
      phrase={record.name}
      actionLabel="Deprecate"
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) deprecate.reset();
      }}
      trigger={
        <button type="button" disabled={record.state === 'deprecated'}>
          Deprecate
        </button>
      }
      pending={deprecate.isPending}
      error={deprecate.error}
      onConfirm={confirm}
      renderError={(error, close) => (
        <NamespaceErrorNotice
          error={error}
          onTakeOwnership={(shard) => {
            // One dialog at a time: this one closes before the take-ownership one opens.
            close();
            onTakeOwnership(shard);
          }}
        />
      )}
    >
      <p>
        The namespace moves from <strong>active</strong> to <strong>deprecated</strong>. This cannot
        be undone from the console; nothing is deleted.
      </p>
    </TypedConfirmDialog>
  );
}
