/**
 * "Create explicit": a namespace with an initial config (a JSON object of at most 64 KiB),
 * checked with the contract's own schema before anything is sent.
 */
import { namespaceProcedures } from '../../../../shared/contract/namespaces';
import { useApiMutation } from '../../api/hooks';
import { formText } from '../../components/form-text';
import { useToasts } from '../../components/Toasts';
import { FormDialog, type SubmitProblem } from './FormDialog';
import { NAMESPACE_QUERIES } from './namespace-queries';
import { problemOf, schemaProblem } from './submit-problem';

/** The config text as JSON, or why it is not. */
function parseConfig(text: string): { config: unknown } | SubmitProblem {
  try {
    return { config: JSON.parse(text === '' ? '{}' : text) as unknown };
  } catch (error) {
    return {
      text: `config: not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

export function CreateExplicitDialog({
  connectionId,
  onTakeOwnership,
}: {
  connectionId: string;
  onTakeOwnership: (shard: number) => void;
}) {
  const put = useApiMutation('namespaces.put', NAMESPACE_QUERIES);
  const push = useToasts((state) => state.push);

  const submit = async (form: FormData) => {
    const config = parseConfig(formText(form, 'config'));
    if (!('config' in config)) return config;
    const parsed = namespaceProcedures['namespaces.put'].input.safeParse({
      connectionId,
      name: formText(form, 'name'),
      config: config.config,
    });
    if (!parsed.success) return schemaProblem(parsed.error);
    return problemOf(async () => {
      const outcome = await put.mutateAsync(parsed.data);
      if (outcome === 'touched')
        push({
          tone: 'ok',
          title: `Namespace "${parsed.data.name}" already existed`,
          description: 'Nothing was overwritten; only its last-seen time was refreshed.',
        });
    });
  };

  return (
    <FormDialog
      title="Create explicit namespace"
      trigger={
        <button type="button" className="primary">
          Create explicit
        </button>
      }
      submitLabel="Create"
      pending={put.isPending}
      onSubmit={submit}
      onTakeOwnership={onTakeOwnership}
    >
      <label>
        Name <input name="name" autoComplete="off" className="mono" required />
      </label>
      <label>
        Config (JSON object)
        <textarea name="config" rows={8} className="mono" defaultValue="{}" spellCheck={false} />
      </label>
      <p className="muted small">If the namespace exists already, nothing of it is overwritten.</p>
    </FormDialog>
  );
}
