/**
 * Starts and stops the in-app load generator on the writer this app holds (operator mode).
 * Its entries are made up: on a store that is neither the embedded one nor holding only this
 * writer's entries, starting asks for the connection's name first (the API checks it too).
 */
import { useState, type FormEvent } from 'react';
import type { InputOf } from '../../../../shared/contract';
import type { WriterView } from '../../../../shared/contract/wal';
import { useApiMutation, useApiQuery } from '../../api/hooks';
import { formText } from '../../components/form-text';
import { useToasts } from '../../components/Toasts';
import { TypedConfirmDialog } from '../../components/TypedConfirmDialog';
import { formatCount } from '../format';

type LoadSpec = Omit<InputOf<'wal.load.start'>, 'confirm'>;

function intOf(text: string, fallback: number): number {
  return /^\d{1,9}$/.test(text) ? Number(text) : fallback;
}

export function LoadControls({
  connectionId,
  prefix,
  writer,
}: {
  connectionId: string;
  prefix: string;
  writer: WriterView;
}) {
  const start = useApiMutation('wal.load.start', ['wal.writer.state']);
  const offer = useApiQuery('wal.load.offer', { connectionId, prefix }, { refetchInterval: false });
  const phrase = offer.data?.confirmPhrase ?? null;
  /** A start waiting for the typed confirmation. */
  const [asking, setAsking] = useState<LoadSpec | null>(null);
  const stop = useApiMutation('wal.load.stop', ['wal.writer.state', 'wal.regions']);
  const push = useToasts((state) => state.push);
  const [problem, setProblem] = useState<string | null>(null);
  const running = writer.load?.running === true;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setProblem(null);
    const spec: LoadSpec = {
      connectionId,
      prefix,
      regions: intOf(formText(form, 'regions'), 4),
      writers: intOf(formText(form, 'writers'), 8),
      count: intOf(formText(form, 'count'), 100_000),
      size: intOf(formText(form, 'size'), 256),
    };
    if (phrase !== null) setAsking(spec);
    else start.mutate(spec, { onError: (error) => setProblem(`${error.code}: ${error.message}`) });
  };
  return (
    <form className="wal-load-form" aria-label="Load generator" onSubmit={submit} noValidate>
      <label>
        Regions <input name="regions" defaultValue="4" inputMode="numeric" />
      </label>
      <label>
        Writers <input name="writers" defaultValue="8" inputMode="numeric" />
      </label>
      <label>
        Entries <input name="count" defaultValue="100000" inputMode="numeric" />
      </label>
      <label>
        Size (bytes) <input name="size" defaultValue="256" inputMode="numeric" />
      </label>
      <button type="submit" disabled={running || start.isPending || offer.isPending}>
        {phrase === null ? 'Start load' : 'Start load…'}
      </button>
      {phrase !== null && (
        <TypedConfirmDialog
          title={`Start load on ${offer.data?.connection ?? ''}`}
          prefix={prefix}
          phrase={phrase}
          actionLabel="Start load"
          open={asking !== null}
          onOpenChange={(open) => {
            if (!open) setAsking(null);
            start.reset();
          }}
          pending={start.isPending}
          error={start.error}
          onConfirm={(typed) =>
            asking === null
              ? Promise.resolve(false)
              : start.mutateAsync({ ...asking, confirm: typed }).then(
                  () => true,
                  () => false,
                )
          }
        >
          <p role="alert">
            <span className="mono">{prefix}</span> holds entries this app did not write, on{' '}
            <strong>{offer.data?.connection}</strong>, which is not the embedded store. The load
            generator appends made-up entries to it.
          </p>
        </TypedConfirmDialog>
      )}
      <button
        type="button"
        disabled={!running || stop.isPending}
        onClick={() =>
          stop.mutate(
            { connectionId, prefix },
            {
              onSuccess: (totals) =>
                push({
                  tone: 'ok',
                  title: 'Load stopped',
                  description: `${totals.acknowledged} acknowledged, ${totals.failed} failed`,
                }),
            },
          )
        }
      >
        Stop load
      </button>
      <span role="status" aria-label="Load progress" className="small">
        {writer.load
          ? `${writer.load.running ? 'Running' : 'Stopped'} · ${formatCount(writer.load.acknowledged)} acknowledged · ${writer.load.failed} failed`
          : 'No load run yet'}
      </span>
      {problem && (
        <p role="alert" className="form-problem">
          {problem}
        </p>
      )}
    </form>
  );
}
