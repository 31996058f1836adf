/**
 * The "Add connection" form: validated with the contract's own schema before it is sent.
 * `initial` fills it in (a link's store that no saved connection opens yet).
 */
import { DialogActions } from '../components/DialogActions';
import { Dialog } from 'radix-ui';
import { useState, type FormEvent } from 'react';
import { ConnectionSpec } from '../../../shared/contract/connections';
import { useApiMutation } from '../api/hooks';
import { formText } from '../components/form-text';
import { useToasts } from '../components/Toasts';

type Kind = 'local' | 's3';

/** What the form starts with; every field stays editable. */
export interface ConnectionDraft {
  readonly kind: Kind;
  readonly name?: string;
  readonly path?: string;
  readonly endpoint?: string;
  readonly bucket?: string;
  readonly root?: string;
}

export function AddConnectionDialog({
  initial,
  triggerLabel = 'Add connection',
}: {
  initial?: ConnectionDraft;
  triggerLabel?: string;
} = {}) {
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<Kind>(initial?.kind ?? 'local');
  const [problem, setProblem] = useState<string | null>(null);
  const add = useApiMutation('connections.add', ['connections.list']);
  const push = useToasts((state) => state.push);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (field: string) => formText(form, field);
    const candidate =
      kind === 'local'
        ? { kind, name: text('name'), path: text('path') }
        : {
            kind,
            name: text('name'),
            endpoint: text('endpoint') || undefined,
            bucket: text('bucket'),
            region: text('region') || 'us-east-1',
            forcePathStyle: form.get('forcePathStyle') === 'on',
            profile: text('profile') || undefined,
            root: text('root'),
          };
    const parsed = ConnectionSpec.safeParse(candidate);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setProblem(`${issue?.path.join('.') || 'form'}: ${issue?.message ?? 'invalid'}`);
      return;
    }
    setProblem(null);
    add.mutate(parsed.data, {
      onSuccess: (connection) => {
        push({ tone: 'ok', title: `Connection "${connection.name}" added` });
        setOpen(false);
      },
      onError: (error) => setProblem(`${error.code}: ${error.message}`),
    });
  };

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button type="button" className="primary">
          {triggerLabel}
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          <Dialog.Title>Add connection</Dialog.Title>
          <form onSubmit={submit} className="form" noValidate>
            <fieldset className="segmented">
              <legend>Kind</legend>
              <label>
                <input
                  type="radio"
                  name="kind"
                  checked={kind === 'local'}
                  onChange={() => setKind('local')}
                />{' '}
                Local directory
              </label>
              <label>
                <input
                  type="radio"
                  name="kind"
                  checked={kind === 's3'}
                  onChange={() => setKind('s3')}
                />{' '}
                S3
              </label>
            </fieldset>
            <label>
              Name <input name="name" defaultValue={initial?.name} autoComplete="off" required />
            </label>
            {kind === 'local' ? (
              <label>
                Directory{' '}
                <input
                  name="path"
                  placeholder="/var/lib/cairn"
                  defaultValue={initial?.path}
                  autoComplete="off"
                  required
                />
              </label>
            ) : (
              <>
                <label>
                  Endpoint{' '}
                  <input
                    name="endpoint"
                    placeholder="https://s3.amazonaws.com (blank: AWS)"
                    defaultValue={initial?.endpoint}
                    autoComplete="off"
                  />
                </label>
                <label>
                  Bucket{' '}
                  <input name="bucket" defaultValue={initial?.bucket} autoComplete="off" required />
                </label>
                <label>
                  Region <input name="region" defaultValue="us-east-1" autoComplete="off" />
                </label>
                <label>
                  AWS profile{' '}
                  <input name="profile" placeholder="default credential chain" autoComplete="off" />
                </label>
                <label>
                  Root prefix{' '}
                  <input
                    name="root"
                    placeholder="(bucket root)"
                    defaultValue={initial?.root}
                    autoComplete="off"
                  />
                </label>
                <label className="inline">
                  <input type="checkbox" name="forcePathStyle" /> Path-style addressing
                </label>
                <p className="muted small">
                  Credentials come from the AWS SDK chain or the named profile; Cairn never stores a
                  secret.
                </p>
              </>
            )}
            {problem && (
              <p role="alert" className="form-problem">
                {problem}
              </p>
            )}
            <DialogActions submitLabel={'Save connection'} disabled={add.isPending} />
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
