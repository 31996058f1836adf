/** The footer of every form dialog: Cancel closes it, the primary button submits the form. */
import { Dialog } from 'radix-ui';

export function DialogActions({
  submitLabel,
  disabled,
}: {
  submitLabel: string;
  disabled: boolean;
}) {
  return (
    <div className="dialog-actions">
      <Dialog.Close asChild>
        <button type="button">Cancel</button>
      </Dialog.Close>
      <button type="submit" className="primary" disabled={disabled}>
        {submitLabel}
      </button>
    </div>
  );
}
