/** Starts and stops the in-app load generator on the writer this app holds (operator mode). */
import { useState, type FormEvent } from 'react';
import type { WriterView } from '../../../../shared/contract/wal';
import { useApiMutation } from '../../api/hooks';
import { formText } from '../../components/form-text';
import { useToasts } from '../../components/Toasts';

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
  const stop = useApiMutation('wal.load.stop', ['wal.writer.state', 'wal.regions']);
  const push = useToasts((state) => state.push);
  const [problem, setProblem] = useState<string | null>(null);
  const running = writer.load?.running === true;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setProblem(null);
    start.mutate(
      {
        connectionId,
        prefix,
        regions: intOf(formText(form, 'regions'), 4),
        writers: intOf(formText(form, 'writers'), 8),
        count: intOf(formText(form, 'count'), 100_000),
        size: intOf(formText(form, 'size'), 256),
      },
      { onError: (error) => setProblem(`${error.code}: ${error.message}`) },
    );
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
      <button type="submit" disabled={running || start.isPending}>
        Start load
      </button>
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
          ? `${writer.load.running ? 'Running' : 'Stopped'} · ${writer.load.acknowledged.toLocaleString()} acknowledged · ${writer.load.failed} failed`
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
