/**
 * Bulk obsolete of the regions selected in Regions (operator mode, a writer opened here): a
 * point per region - its latest id, an entry id or a time, set for every region at once or
 * one by one - one preview of what the whole bulk hides and of what the garbage collection
 * after it deletes, and one typed confirmation naming the count. The main process checks
 * the phrase, the mode and every point again, and audits one entry per region.
 */
import { useState } from 'react';
import type { RegionRow } from '../../../../shared/contract/wal';
import type { BulkObsoleteRegion } from '../../../../shared/contract/wal-bulk-obsolete';
import { bulkObsoletePhrase } from '../../../../shared/contract/wal-bulk-obsolete';
import { formatEntryId, formatRegionId } from '../../../../shared/id-notation';
import { utcText } from '../../../../shared/relative-time';
import { useApiMutation, useApiQuery } from '../../api/hooks';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Pending } from '../../components/Pending';
import { useToasts } from '../../components/Toasts';
import { TypedConfirmDialog } from '../../components/TypedConfirmDialog';
import { LATEST, pointOf, POINT_KINDS, type PointDraft, type PointKind } from './bulk-points';
import { DeletesText } from './RegionActions';
import { counted } from '../../../../shared/plural';

const REFRESHES = ['wal.regions', 'wal.inspect', 'wal.manifest', 'wal.writer.state'] as const;

function PointFields({
  label,
  draft,
  onChange,
}: {
  label: string;
  draft: PointDraft;
  onChange: (draft: PointDraft) => void;
}) {
  return (
    <span className="inline">
      <select
        aria-label={`${label}: up to`}
        value={draft.kind}
        onChange={(event) => onChange({ kind: event.target.value as PointKind, text: '' })}
      >
        {POINT_KINDS.map((kind) => (
          <option key={kind.kind} value={kind.kind}>
            {kind.label}
          </option>
        ))}
      </select>
      {draft.kind === 'id' && (
        <input
          aria-label={`${label}: entry id`}
          className="mono"
          placeholder="seq:position"
          value={draft.text}
          onChange={(event) => onChange({ ...draft, text: event.target.value })}
          autoComplete="off"
        />
      )}
      {draft.kind === 'time' && (
        <input
          type="datetime-local"
          step={1}
          aria-label={`${label}: time (local)`}
          value={draft.text}
          onChange={(event) => onChange({ ...draft, text: event.target.value })}
        />
      )}
    </span>
  );
}

/** What one region's point resolved to and hides. */
function resolvedText(region: BulkObsoleteRegion): string {
  if (region.noChange)
    return `nothing: the watermark is already ${formatEntryId(region.watermark)}`;
  const mapped =
    region.mappedTo === null
      ? ''
      : ` (seq ${region.mappedTo.seq}, written ${utcText(region.mappedTo.modifiedAtMs)})`;
  return `up to ${formatEntryId(region.id)}${mapped}: hides ${counted(region.hiddenEntries, 'entry')}`;
}

export function BulkObsoleteDialog({
  connectionId,
  prefix,
  regions,
  onDone,
}: {
  connectionId: string;
  prefix: string;
  /** The regions selected, in table order. */
  regions: readonly RegionRow[];
  onDone: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [every, setEvery] = useState<PointDraft>(LATEST);
  const [own, setOwn] = useState<ReadonlyMap<bigint, PointDraft>>(new Map());
  const bulk = useApiMutation('wal.obsolete.bulk', REFRESHES);
  const push = useToasts((state) => state.push);
  const draftOf = (region: bigint) => own.get(region) ?? every;
  const points = regions.map((row) => ({ row, made: pointOf(draftOf(row.regionId)) }));
  const problems = points.flatMap(({ row, made }) =>
    'problem' in made ? [`${formatRegionId(row.regionId)}: ${made.problem}`] : [],
  );
  // Regions as `table:region` text, like the points' ids: the input is also a query key.
  const targets = points.flatMap(({ row, made }) =>
    'point' in made ? [{ region: formatRegionId(row.regionId), upTo: made.point }] : [],
  );
  const ready = open && problems.length === 0 && targets.length > 0;
  const input = { connectionId, prefix, regions: targets };
  const preview = useApiQuery('wal.obsolete.bulk.preview', input, {
    enabled: ready,
    refetchInterval: false,
  });
  const phrase = bulkObsoletePhrase(targets);
  const previewed = ready && preview.data !== undefined && !preview.isFetching;
  const byRegion = new Map(preview.data?.regions.map((region) => [region.region, region]));

  return (
    <TypedConfirmDialog
      title={`Obsolete ${counted(regions.length, 'region')}`}
      prefix={prefix}
      phrase={phrase}
      actionLabel="Obsolete regions"
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        bulk.reset();
        if (next) {
          setEvery(LATEST);
          setOwn(new Map());
        }
      }}
      pending={bulk.isPending || !previewed}
      error={bulk.error}
      trigger={
        <button type="button" disabled={regions.length === 0}>
          Obsolete selected…
        </button>
      }
      onConfirm={(typed) =>
        bulk.mutateAsync({ ...input, confirm: typed }).then(
          (done) => {
            push({
              tone: 'ok',
              title: `${counted(done.regions.length, 'region')} obsolete`,
              description: `${counted(done.hiddenEntries, 'entry')} hidden`,
            });
            onDone();
            return true;
          },
          () => false,
        )
      }
    >
      <div className="inline">
        <span>Every region up to</span>
        <PointFields
          label="Every region"
          draft={every}
          onChange={(draft) => {
            setEvery(draft);
            setOwn(new Map());
          }}
        />
      </div>
      <p className="muted small">
        A time maps to the newest id written at or before it: the region's last id in the longest
        run of the chain whose objects were all written by then.
      </p>
      <table className="table" aria-label="Regions to obsolete">
        <thead>
          <tr>
            <th>Region</th>
            <th>Up to</th>
            <th>Preview</th>
          </tr>
        </thead>
        <tbody>
          {regions.map((row) => {
            const name = formatRegionId(row.regionId);
            const resolved = byRegion.get(row.regionId);
            return (
              <tr key={name}>
                <th scope="row" className="mono">
                  {name}
                </th>
                <td>
                  <PointFields
                    label={`Region ${name}`}
                    draft={draftOf(row.regionId)}
                    onChange={(draft) => setOwn(new Map(own).set(row.regionId, draft))}
                  />
                </td>
                <td className="small">{resolved === undefined ? '' : resolvedText(resolved)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {problems.map((problem) => (
        <p key={problem} className="form-problem">
          {problem}
        </p>
      ))}
      {ready && preview.isFetching && <Pending what="Previewing" />}
      {preview.error && <ErrorPanel error={preview.error} />}
      {previewed && preview.data && (
        <>
          <p role="status" aria-label="Bulk obsolete preview">
            Hides {counted(preview.data.hiddenEntries, 'entry')} in{' '}
            {preview.data.regions.filter((region) => !region.noChange).length} of{' '}
            {counted(preview.data.regions.length, 'region')}.
          </p>
          <DeletesText deletes={preview.data.deletes} />
        </>
      )}
    </TypedConfirmDialog>
  );
}
