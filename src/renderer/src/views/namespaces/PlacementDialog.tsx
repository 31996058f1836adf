/** "Set placement": replaces the whole placement of one namespace; all fields empty clears it. */
import {
  namespaceProcedures,
  type ListedNamespace,
  type NamespacePlacement,
} from '../../../../shared/contract/namespaces';
import { useApiMutation } from '../../api/hooks';
import { formText } from '../../components/form-text';
import { useToasts } from '../../components/Toasts';
import { FormDialog } from './FormDialog';
import { NAMESPACE_QUERIES } from './namespace-queries';
import { problemOf, schemaProblem } from './submit-problem';

function placementFrom(form: FormData): NamespacePlacement | null {
  const node = formText(form, 'node');
  const region = formText(form, 'region');
  const tier = formText(form, 'tier');
  const pinned = form.get('pinned') === 'on';
  const placement = {
    ...(node && { node }),
    ...(region && { region }),
    ...(tier && { tier }),
    ...(pinned && { pinned }),
  };
  return Object.keys(placement).length === 0 ? null : placement;
}

export function PlacementDialog(props: {
  connectionId: string;
  record: ListedNamespace;
  onTakeOwnership: (shard: number) => void;
}) {
  const { connectionId, record, onTakeOwnership } = props;
  const setPlacement = useApiMutation('namespaces.setPlacement', NAMESPACE_QUERIES);
  const push = useToasts((state) => state.push);
  const current = record.placement;

  const submit = async (form: FormData) => {
    const parsed = namespaceProcedures['namespaces.setPlacement'].input.safeParse({
      connectionId,
      name: record.name,
      placement: placementFrom(form),
    });
    if (!parsed.success) return schemaProblem(parsed.error);
    return problemOf(async () => {
      const updated = await setPlacement.mutateAsync(parsed.data);
      if (updated === null)
        push({ tone: 'error', title: `Namespace "${record.name}" no longer exists` });
      else push({ tone: 'ok', title: `Placement of "${record.name}" saved` });
    });
  };

  return (
    <FormDialog
      title={`Set placement of ${record.name}`}
      trigger={<button type="button">Set placement</button>}
      submitLabel="Save placement"
      pending={setPlacement.isPending}
      onSubmit={submit}
      onTakeOwnership={onTakeOwnership}
    >
      <label>
        Node <input name="node" defaultValue={current?.node ?? ''} autoComplete="off" />
      </label>
      <label>
        Region <input name="region" defaultValue={current?.region ?? ''} autoComplete="off" />
      </label>
      <label>
        Tier <input name="tier" defaultValue={current?.tier ?? ''} autoComplete="off" />
      </label>
      <label className="inline">
        <input type="checkbox" name="pinned" defaultChecked={current?.pinned === true} /> Pinned
      </label>
      <p className="muted small">
        The placement is replaced as a whole; leave every field empty to clear it.
      </p>
    </FormDialog>
  );
}
