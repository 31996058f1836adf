/**
 * Garbage collection of one prefix, the same in Overview, Batches and Manifest (control.md
 * point 5): always a dry run first —
 * exactly the objects and bytes a pass would delete, what holds the boundary back (the
 * regions above their watermarks) and who holds the register — then, on a writer opened here
 * in operator mode, the pass itself behind a typed confirmation naming the prefix.
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
import { formatEntryId } from '../../../../shared/id-notation';
import { formatWalRegion } from '../../../../shared/contract/wal';
import { counted } from '../../../../shared/plural';
import { PanelHeading } from '../../components/PrefixName';

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
        title: `Collected ${counted(report.objects.length, 'object')}`,
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
      {/* The panel says which prefix it acts on: the Overview shows it for the selected one. */}
      <PanelHeading what="Garbage collection" prefix={prefix} />
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
            {String(preview.boundary)} and delete{' '}
            <strong>{counted(preview.objects.length, 'object')}</strong> (
            {formatBytes(preview.bytes)}).
          </p>
          <HeldBackText report={preview} />
          <HolderText holder={preview.holder} />
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
              title="Collect garbage"
              prefix={prefix}
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

/** Which object the boundary stops at, and the regions (with their watermarks) that hold it. */
function HeldBackText({ report }: { report: GcReport }) {
  const held = report.heldBack;
  if (held === null) return null;
  if (held.tipOnly)
    return (
      <p className="small" aria-label="What holds the boundary">
        Every object below the tip (seq {String(held.seq)}) is wholly obsolete: only the tip is
        kept.
      </p>
    );
  return (
    <p className="small" aria-label="What holds the boundary">
      Held back at seq {String(held.seq)} by{' '}
      {held.regions
        .map(
          (region) =>
            `region ${formatWalRegion(region.regionId)} (watermark ${formatEntryId(region.watermark)}, entries up to ${formatEntryId(region.lastId)})`,
        )
        .join(', ')}
      : obsolete them to let the boundary move.
    </p>
  );
}

/** Who holds the register: the epoch a pass fences, and whether that writer looks live. */
function HolderText({ holder }: { holder: GcReport['holder'] }) {
  if (holder === null)
    return (
      <p className="small muted" aria-label="Register holder">
        No writer ever opened this prefix.
      </p>
    );
  const state = holder.openInApp
    ? 'a writer of this app'
    : holder.live
      ? 'a writer that looks live: a pass fences it'
      : 'no live writer';
  return (
    <p
      className={holder.live && !holder.openInApp ? 'small wal-warn' : 'small'}
      aria-label="Register holder"
    >
      Register held by epoch {String(holder.epoch)} (writer {holder.writerId}
      {holder.writtenAgoMs === null
        ? ''
        : `, written ${Math.round(holder.writtenAgoMs / 1000)} s ago`}
      ): {state}.
    </p>
  );
}
