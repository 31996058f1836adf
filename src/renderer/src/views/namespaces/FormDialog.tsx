/**
 * A dialog holding one form: its fields are the caller's, and so is the check; this owns
 * opening, closing on success, and showing what went wrong (a form problem or a typed error).
 */
import { DialogActions } from '../../components/DialogActions';
import { Dialog } from 'radix-ui';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { ApiError } from '../../../../shared/api-error';
import { NamespaceErrorNotice } from './NamespaceErrorNotice';

/** Why a submit did not go through: the form's own check, or the main process's typed error. */
export type SubmitProblem = { readonly text: string } | { readonly error: ApiError };

export interface FormDialogProps {
  readonly title: string;
  readonly trigger: ReactNode;
  readonly submitLabel: string;
  readonly pending: boolean;
  readonly children: ReactNode;
  /** Resolves null when done (the dialog closes), or the problem to show. */
  readonly onSubmit: (form: FormData) => Promise<SubmitProblem | null>;
  readonly onTakeOwnership?: (shard: number) => void;
}

export function FormDialog({
  title,
  trigger,
  submitLabel,
  pending,
  children,
  onSubmit,
  onTakeOwnership,
}: FormDialogProps) {
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState<SubmitProblem | null>(null);

  const change = (next: boolean) => {
    setOpen(next);
    setProblem(null);
  };
  // One dialog at a time: this one closes before the take-ownership one opens.
  const takeOwnership =
    onTakeOwnership &&
    ((shard: number) => {
      change(false);
      onTakeOwnership(shard);
    });
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = await onSubmit(new FormData(event.currentTarget));
    if (found === null) change(false);
    else setProblem(found);
  };

  return (
    <Dialog.Root open={open} onOpenChange={change}>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          <Dialog.Title>{title}</Dialog.Title>
          <form className="form" onSubmit={(event) => void submit(event)} noValidate>
            {children}
            {problem !== null &&
              ('text' in problem ? (
                <p role="alert" className="form-problem">
                  {problem.text}
                </p>
              ) : (
                <NamespaceErrorNotice error={problem.error} onTakeOwnership={takeOwnership} />
              ))}
            <DialogActions submitLabel={submitLabel} disabled={pending} />
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
