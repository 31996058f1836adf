/** "Register": create a namespace if absent (created) or refresh its lastSeen (touched). */
import { namespaceProcedures } from '../../../../shared/contract/namespaces';
import { useApiMutation } from '../../api/hooks';
import { formText } from '../../components/form-text';
import { useToasts } from '../../components/Toasts';
import { FormDialog } from './FormDialog';
import { NAMESPACE_QUERIES } from './namespace-queries';
import { problemOf, schemaProblem } from './submit-problem';

export function RegisterDialog({
  connectionId,
  onTakeOwnership,
}: {
  connectionId: string;
  onTakeOwnership: (shard: number) => void;
}) {
  const register = useApiMutation('namespaces.register', NAMESPACE_QUERIES);
  const push = useToasts((state) => state.push);

  const submit = async (form: FormData) => {
    const parsed = namespaceProcedures['namespaces.register'].input.safeParse({
      connectionId,
      name: formText(form, 'name'),
      origin: formText(form, 'origin'),
    });
    if (!parsed.success) return schemaProblem(parsed.error);
    return problemOf(async () => {
      const outcome = await register.mutateAsync(parsed.data);
      // "created" is announced loudly by the namespaces.created event; a touch is quiet news.
      if (outcome === 'touched')
        push({
          tone: 'ok',
          title: `Namespace "${parsed.data.name}" already existed`,
          description: 'Only its last-seen time was refreshed.',
        });
    });
  };

  return (
    <FormDialog
      title="Register namespace"
      trigger={<button type="button">Register</button>}
      submitLabel="Register"
      pending={register.isPending}
      onSubmit={submit}
      onTakeOwnership={onTakeOwnership}
    >
      <label>
        Name{' '}
        <input name="name" autoComplete="off" className="mono" placeholder="team/orders" required />
      </label>
      <label>
        Origin
        <select name="origin" defaultValue="minted">
          <option value="minted">minted (as if created by use)</option>
          <option value="explicit">explicit</option>
        </select>
      </label>
      <p className="muted small">
        An existing namespace is left as it is: only its last-seen time is refreshed.
      </p>
    </FormDialog>
  );
}
