/**
 * Garbage collection from the Manifest view (control.md point 5): always a dry run first —
 * exactly the objects and bytes a pass would delete — then, on a writer opened here in
 * operator mode, the pass itself behind a typed confirmation naming the prefix.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { GcReport } from '../../../../shared/contract/wal';
import { api } from '../../api/client';
import { useApiMutation } from '../../api/hooks';
import { ErrorPanel } from '../../components/ErrorPanel';
import { TypedConfirmDialog } from '../../components/TypedConfirmDialog';
import { useToasts } from '../../components/Toasts';
import { formatBytes } from '../format';

export function GcControls(props: {
  connectionId: string;
  prefix: string;
  operator: boolean;
  writerOpen: boolean;
}) {
  const { connectionId, prefix, operator, writerOpen } = props;
  const [preview, setPreview] = useState<GcReport | null>(null);
  const dryRun = useApiMutation('wal.gc.preview');
  const collect = useApiMutation('wal.gc', ['wal.manifest', 'wal.inspect', 'wal.objects']);
  const push = useToasts((state) => state.push);
  const queryClient = useQueryClient();
  useEffect(
    () =>
      api.onEvent((event) => {
        if (event.type === 'wal.gc.collected' && event.prefix === prefix)
          void queryClient.invalidateQueries({ queryKey: ['wal.manifest'] });
      }),
    [prefix, queryClient],
  );

  const confirm = async (typed: string) => {
    try {
      const report = await collect.mutateAsync({ connectionId, prefix, confirm: typed });
      push({
        tone: 'ok',
        title: `Collected ${report.objects.length} objects`,
        description: `${formatBytes(report.bytes)} freed; boundary ${report.boundary}`,
      });
      setPreview(null);
      return true;
    } catch {
      return false;
    }
  };

  return (
    <section aria-label="Garbage collection" className="wal-panel">
      <h2>Garbage collection</h2>
      <button
        type="button"
        onClick={() => dryRun.mutate({ connectionId, prefix }, { onSuccess: setPreview })}
        disabled={dryRun.isPending}
      >
        Preview garbage collection
      </button>
      {dryRun.error && <ErrorPanel error={dryRun.error} />}
      {preview && (
        <div role="status" aria-label="Garbage collection preview">
          <p>
            A pass would move the boundary from {String(preview.previousBoundary)} to{' '}
            {String(preview.boundary)} and delete <strong>{preview.objects.length} objects</strong>{' '}
            ({formatBytes(preview.bytes)}).
          </p>
          {preview.unjudged && (
            <p className="muted">
              The chain cannot be judged ({preview.unjudged.code}): the boundary stays.
            </p>
          )}
          {preview.objects.length > 0 && (
            <ul className="mono small">
              {preview.objects.slice(0, 20).map((object) => (
                <li key={object.key}>{object.key}</li>
              ))}
              {preview.objects.length > 20 && <li>… {preview.objects.length - 20} more</li>}
            </ul>
          )}
          {operator && writerOpen ? (
            <TypedConfirmDialog
              title={`Collect garbage in ${prefix}`}
              phrase={prefix}
              actionLabel="Collect"
              trigger={<button type="button">Collect…</button>}
              pending={collect.isPending}
              error={collect.error}
              onConfirm={confirm}
            >
              <p>
                Deletes every object below the new boundary, in ascending order. Nothing a reopen or
                a replay needs is deleted.
              </p>
            </TypedConfirmDialog>
          ) : (
            <p className="muted small">
              A pass runs on a writer opened in this app, in operator mode (Regions → Open as
              writer).
            </p>
          )}
        </div>
      )}
    </section>
  );
}
