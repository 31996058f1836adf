/**
 * The region actions of a writer opened in the app (operator mode): obsolete up to an id with
 * a preview of what it hides - and of what the garbage collection after it deletes - and a
 * typed confirmation (the region id), obsolete all (with the same preview), and the region
 * table's create / delete. On a prefix a live writer of another process holds, the obsolete
 * dialog sends a watermark request instead (`mode="request"`): the writer applies it at its
 * next register write and is not fenced. The main process checks all of it again.
 */
import { useState } from 'react';
import {
  parseEntryId,
  parseWalRegion,
  type ObsoletePreview,
  type RegionRow,
} from '../../../../shared/contract/wal';
import { api } from '../../api/client';
import { useApiMutation } from '../../api/hooks';
import type { ApiError } from '../../../../shared/api-error';
import { ErrorPanel } from '../../components/ErrorPanel';
import { useToasts } from '../../components/Toasts';
import { TypedConfirmDialog } from '../../components/TypedConfirmDialog';
import { regionName } from './wal-words';
import { formatEntryId } from '../../../../shared/id-notation';
import { formatBytes } from '../format';
import { counted } from '../../../../shared/plural';
import { useHeldSubject } from './held-subject';

/** Two rows of one region (a recycled table row may show another). */
const sameRegion = (a: RegionRow, b: RegionRow): boolean => a.regionId === b.regionId;

const REFRESHES = ['wal.regions', 'wal.inspect', 'wal.manifest', 'wal.writer.state'] as const;
const REQUEST_REFRESHES = ['wal.obsolete.requests', 'wal.manifest'] as const;

function PreviewText({ preview }: { preview: ObsoletePreview }) {
  if (preview.noChange)
    return (
      <p role="status" aria-label="Obsolete preview">
        Nothing changes: the watermark is already {formatEntryId(preview.watermark)}.
      </p>
    );
  return (
    <>
      <p role="status" aria-label="Obsolete preview">
        Hides {counted(preview.hiddenEntries, 'entry')}; {counted(preview.hiddenObjects, 'object')}{' '}
        ({formatBytes(preview.hiddenBytes)} of this region) become wholly hidden. Watermark{' '}
        {formatEntryId(preview.watermark)} → {formatEntryId(preview.id)}.
      </p>
      <DeletesText deletes={preview.deletes} />
    </>
  );
}

/** What the garbage collection after the obsolete deletes: said before the user confirms. */
export function DeletesText({ deletes }: { deletes: ObsoletePreview['deletes'] }) {
  if (deletes === null)
    return (
      <p className="small muted" aria-label="Deletion preview">
        The garbage collection that follows deletes no object.
      </p>
    );
  return (
    <p role="alert" aria-label="Deletion preview" className="wal-warn">
      Then garbage collection <strong>deletes {counted(deletes.objects, 'object')}</strong> (
      {formatBytes(deletes.bytes)}), <span className="mono">{deletes.firstKey}</span>
      {deletes.objects > 1 && (
        <>
          {' '}
          to <span className="mono">{deletes.lastKey}</span>
        </>
      )}
      ; the boundary moves to seq {String(deletes.boundary)}. Deleted objects cannot be read again.
    </p>
  );
}

/**
 * `direct`: the writer opened in the app obsoletes. `request`: the writer of another process
 * is asked to (a watermark request; it is not fenced).
 */
export type ObsoleteMode = 'direct' | 'request';

export function ObsoleteDialog({
  connectionId,
  prefix,
  region: shown,
  mode = 'direct',
}: {
  connectionId: string;
  prefix: string;
  region: RegionRow;
  mode?: ObsoleteMode;
}) {
  const { subject: region, hold } = useHeldSubject(shown, sameRegion);
  const name = regionName(region.regionId);
  const [idText, setIdText] = useState(formatEntryId(region.latestId));
  const [preview, setPreview] = useState<ObsoletePreview | null>(null);
  const [previewError, setPreviewError] = useState<ApiError | null>(null);
  const direct = useApiMutation('wal.obsolete', REFRESHES);
  const request = useApiMutation('wal.obsolete.request', REQUEST_REFRESHES);
  const obsolete = mode === 'direct' ? direct : request;
  const push = useToasts((state) => state.push);
  const confirmed = (typed: string, target: bigint): Promise<boolean> => {
    const input = { connectionId, prefix, region: region.regionId, id: target, confirm: typed };
    const told = (title: string, description: string) => {
      push({ tone: 'ok', title, description });
      return true;
    };
    if (mode === 'request')
      return request.mutateAsync(input).then(
        (done) =>
          told(
            `Request sent: region ${name} up to ${formatEntryId(done.request.watermark)}`,
            `pending until the writer (epoch ${done.writerEpoch}) applies it at its next register write`,
          ),
        () => false,
      );
    return direct.mutateAsync(input).then(
      (done) =>
        told(
          `Region ${name} obsolete up to ${formatEntryId(done.id)}`,
          `${counted(done.hiddenEntries, 'entry')} hidden`,
        ),
      () => false,
    );
  };
  const id = parseEntryId(idText);
  const tooHigh = id !== null && id > region.durableId;

  const runPreview = async () => {
    if (id === null) return;
    setPreviewError(null);
    try {
      setPreview(
        await api.call('wal.obsolete.preview', {
          connectionId,
          prefix,
          region: region.regionId,
          id,
        }),
      );
    } catch (error) {
      setPreviewError(error as ApiError);
    }
  };

  return (
    <TypedConfirmDialog
      title={mode === 'request' ? `Request obsolete of region ${name}` : `Obsolete region ${name}`}
      prefix={prefix}
      phrase={name}
      actionLabel={mode === 'request' ? 'Send request' : 'Obsolete'}
      pending={obsolete.isPending || preview === null || preview.id !== id}
      error={obsolete.error}
      onOpenChange={(open) => {
        hold(open);
        obsolete.reset();
        if (open) {
          setPreview(null);
          setIdText(formatEntryId(shown.latestId));
        }
      }}
      trigger={
        <button
          type="button"
          aria-label={`${mode === 'request' ? 'Request obsolete of' : 'Obsolete'} region ${name}`}
        >
          {mode === 'request' ? 'Request obsolete…' : 'Obsolete…'}
        </button>
      }
      onConfirm={(typed) => (id === null ? Promise.resolve(false) : confirmed(typed, id))}
    >
      {mode === 'request' && (
        <p className="small" aria-label="What a request does">
          A writer of another process holds this prefix. The request is written to its register
          without taking its epoch: the writer applies it at its next register write and keeps
          writing. It waits, shown under Watermark requests, until then.
        </p>
      )}
      <label>
        <span>
          Up to entry id, seq:position or decimal (at most the latest durable id{' '}
          {formatEntryId(region.durableId)})
        </span>
        <input
          aria-label="Up to entry id"
          className="mono"
          value={idText}
          onChange={(event) => setIdText(event.target.value)}
          autoComplete="off"
        />
      </label>
      {id === null && (
        <p className="form-problem">id: must be seq:position or a decimal u64 entry id</p>
      )}
      {tooHigh && (
        <p className="form-problem">
          id: above the latest durable id {formatEntryId(region.durableId)}
        </p>
      )}
      <button type="button" onClick={() => void runPreview()} disabled={id === null}>
        Preview
      </button>
      {preview && preview.id === id && <PreviewText preview={preview} />}
      {previewError && <ErrorPanel error={previewError} />}
    </TypedConfirmDialog>
  );
}

export function ObsoleteAllDialog({
  connectionId,
  prefix,
  region: shown,
}: {
  connectionId: string;
  prefix: string;
  region: RegionRow;
}) {
  const { subject: region, hold } = useHeldSubject(shown, sameRegion);
  const name = regionName(region.regionId);
  const obsoleteAll = useApiMutation('wal.obsoleteAll', REFRESHES);
  const preview = useApiMutation('wal.obsolete.preview');
  const push = useToasts((state) => state.push);
  return (
    <TypedConfirmDialog
      title={`Obsolete all of region ${name}`}
      prefix={prefix}
      phrase={name}
      actionLabel="Obsolete all"
      pending={obsoleteAll.isPending || preview.isPending}
      error={obsoleteAll.error}
      onOpenChange={(open) => {
        hold(open);
        obsoleteAll.reset();
        if (open)
          preview.mutate({ connectionId, prefix, region: shown.regionId, id: shown.latestId });
      }}
      trigger={
        <button type="button" aria-label={`Obsolete all of region ${name}`}>
          Obsolete all…
        </button>
      }
      onConfirm={(typed) =>
        obsoleteAll
          .mutateAsync({ connectionId, prefix, region: region.regionId, confirm: typed })
          .then(
            (done) => {
              push({
                tone: 'ok',
                title: `Region ${name} wholly obsolete`,
                description: `${counted(done.hiddenEntries, 'entry')} hidden`,
              });
              return true;
            },
            () => false,
          )
      }
    >
      <p>
        The watermark of {name} becomes its latest id {formatEntryId(region.latestId)}: every entry
        is hidden and its objects can be collected.
      </p>
      {preview.data && <DeletesText deletes={preview.data.deletes} />}
      {preview.error && <ErrorPanel error={preview.error} />}
    </TypedConfirmDialog>
  );
}

export function NamespaceActions({
  connectionId,
  prefix,
}: {
  connectionId: string;
  prefix: string;
}) {
  const [text, setText] = useState('');
  const create = useApiMutation('wal.namespaces.create', REFRESHES);
  const remove = useApiMutation('wal.namespaces.delete', REFRESHES);
  const push = useToasts((state) => state.push);
  const region = parseWalRegion(text);
  const name = region === null ? text : regionName(region);
  const report = (verb: string) => ({
    onSuccess: () => push({ tone: 'ok' as const, title: `Region ${name} ${verb}` }),
    onError: (error: ApiError) =>
      push({ tone: 'error' as const, title: error.code, description: error.message }),
  });
  return (
    <form
      className="wal-namespace-form"
      aria-label="Region table"
      onSubmit={(event) => event.preventDefault()}
    >
      <label>
        <span>Region</span>
        <input
          aria-label="Region for the region table"
          className="mono"
          placeholder="table:region"
          value={text}
          onChange={(event) => setText(event.target.value)}
          autoComplete="off"
        />
      </label>
      <button
        type="button"
        disabled={region === null || create.isPending}
        onClick={() =>
          region !== null && create.mutate({ connectionId, prefix, region }, report('created'))
        }
      >
        Create namespace
      </button>
      <TypedConfirmDialog
        title={`Delete namespace ${name}`}
        prefix={prefix}
        phrase={name}
        actionLabel="Delete namespace"
        pending={remove.isPending || region === null}
        error={remove.error}
        onOpenChange={() => remove.reset()}
        trigger={
          <button type="button" disabled={region === null}>
            Delete namespace…
          </button>
        }
        onConfirm={(typed) =>
          region === null
            ? Promise.resolve(false)
            : remove.mutateAsync({ connectionId, prefix, region, confirm: typed }).then(
                () => {
                  push({ tone: 'ok', title: `Region ${name} deleted` });
                  return true;
                },
                () => false,
              )
        }
      >
        <p>
          Deleting obsoletes every entry of {name} and removes it from the register's region table
          (its watermark stays).
        </p>
      </TypedConfirmDialog>
      {region === null && text !== '' && (
        <p className="form-problem">region: must be tableId:regionNumber or a decimal u64</p>
      )}
    </form>
  );
}
