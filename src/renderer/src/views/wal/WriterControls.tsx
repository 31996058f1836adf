/**
 * The writer this app may hold on a prefix: who writes it now, and (operator mode) "Open as
 * writer" / "Take over as writer" behind a typed confirmation naming the prefix - taking the
 * epoch fences any other writer, so a fresh register gets a warning - and "Close writer".
 */
import type { InspectView, WriterView } from '../../../../shared/contract/wal';
import { useApiMutation } from '../../api/hooks';
import { useToasts } from '../../components/Toasts';
import { TypedConfirmDialog } from '../../components/TypedConfirmDialog';
import { ageText } from './wal-words';

const REFRESHES = [
  'wal.writer.state',
  'wal.prefixes',
  'wal.inspect',
  'wal.regions',
  'wal.manifest',
  'wal.objects',
] as const;

export function WriterControls({
  connectionId,
  prefix,
  writer,
  inspect,
  operator,
}: {
  connectionId: string;
  prefix: string;
  writer: WriterView | null;
  inspect: InspectView | undefined;
  operator: boolean;
}) {
  const open = useApiMutation('wal.writer.open', REFRESHES);
  const close = useApiMutation('wal.writer.close', REFRESHES);
  const push = useToasts((state) => state.push);

  if (writer !== null) {
    return (
      <div className="wal-writer-controls" role="group" aria-label="Writer">
        <span className="badge ok" role="status" aria-label="Writer status">
          Writer open here · epoch {String(writer.state.epoch)}
        </span>
        {operator && (
          <button
            type="button"
            disabled={close.isPending}
            onClick={() =>
              close.mutate(
                { connectionId, prefix },
                {
                  onSuccess: (report) =>
                    push({
                      tone: 'ok',
                      title: 'Writer closed',
                      description: report.sealed
                        ? `Epoch sealed at seq ${String(report.lastSeq ?? 'none')}`
                        : 'The epoch was not sealed',
                    }),
                  onError: (error) =>
                    push({ tone: 'error', title: error.code, description: error.message }),
                },
              )
            }
          >
            Close writer
          </button>
        )}
      </div>
    );
  }

  const register = inspect?.register;
  const takeOver = register?.exists === true;
  const label = takeOver ? 'Take over as writer' : 'Open as writer';
  return (
    <div className="wal-writer-controls" role="group" aria-label="Writer">
      <span className="badge" role="status" aria-label="Writer status">
        {register?.exists
          ? `Not written by this app · epoch ${String(register.writerEpoch)}${inspect?.registerAgeMs != null ? ` · register written ${ageText(inspect.registerAgeMs)} ago` : ''}`
          : 'No writer ever opened this prefix'}
      </span>
      {operator && inspect && (
        <TypedConfirmDialog
          title={label}
          prefix={prefix}
          phrase={prefix}
          actionLabel={takeOver ? 'Take over' : 'Open writer'}
          pending={open.isPending}
          error={open.error}
          onOpenChange={() => open.reset()}
          trigger={<button type="button">{label}</button>}
          onConfirm={(typed) =>
            open.mutateAsync({ connectionId, prefix, takeOver: true, confirm: typed }).then(
              (view) => {
                push({
                  tone: 'ok',
                  title: 'Writer open',
                  description: `${prefix} at epoch ${String(view.state.epoch)}`,
                });
                return true;
              },
              () => false,
            )
          }
        >
          <p>
            Opening a writer here takes a new epoch on <span className="mono">{prefix}</span>. Any
            process writing it now is <strong>fenced</strong>: its next acknowledgement fails.
          </p>
          {inspect.registerFresh && (
            <p role="alert" className="form-problem">
              Its register was written {ageText(inspect.registerAgeMs ?? 0)} ago: a writer may be
              live right now.
            </p>
          )}
        </TypedConfirmDialog>
      )}
    </div>
  );
}
