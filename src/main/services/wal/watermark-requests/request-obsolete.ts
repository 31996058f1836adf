/**
 * Asking the writer that holds a prefix to obsolete a region up to an id, without taking its
 * epoch (docs/design/watermark-requests.md): the same preview and the same bound as an
 * obsolete (never above the region's latest durable id as this app reads the prefix, so no
 * entry written after the request can be hidden by it), then one request added to the
 * register. A prefix whose writer is open in this app is obsoleted directly instead
 * (`WriterInApp`). The router has already checked operator mode and the typed confirmation,
 * and audits the call; this module never takes an epoch.
 */
import { randomUUID } from 'node:crypto';
import type { WatermarkRequestResult } from '../../../../shared/contract/wal-watermark-requests';
import { formatEntryId, formatRegionId } from '../../../../shared/id-notation';
import { CairnError } from '../../../engine/errors';
import { registerStoreOf } from '../../../engine/wal/register';
import { submitWatermarkRequest } from '../../../engine/wal/watermark-requests/submit';
import type { Session } from '../../caller';
import type { AppWriter } from '../app-writer';
import { ObsoleteAboveLatestError } from '../errors';
import { obsoletePreviewAt } from '../obsolete-deletes';
import type { PrefixSnapshot } from '../read-model/prefix-model';
import type { CairnLocated } from '../wal-locate';
import { requestRowOf } from './request-rows';

export class WriterInAppError extends CairnError {
  constructor(prefix: string) {
    super(
      'WriterInApp',
      `this app holds the writer of ${prefix}: obsolete directly (a request is for a writer in another process)`,
      { prefix },
    );
  }
}

/** Who asked, as the request records it (shown by every console; never trusted). */
export function requesterOf(session: Session): string {
  return `${session.name} (Cairn console)`.slice(0, 200);
}

export async function requestObsoleteAt(
  at: CairnLocated,
  writer: AppWriter | undefined,
  snapshotOf: () => Promise<PrefixSnapshot>,
  region: bigint,
  id: bigint,
  session: Session,
): Promise<WatermarkRequestResult> {
  if (writer !== undefined) throw new WriterInAppError(at.prefix);
  const preview = await obsoletePreviewAt(at, undefined, snapshotOf, region, id);
  if (id > preview.latestId)
    throw new ObsoleteAboveLatestError(at.prefix, formatRegionId(region), id, preview.latestId);
  const now = Date.now();
  const submitted = await submitWatermarkRequest(
    registerStoreOf(at.io, at.prefix, { writerId: `console-${randomUUID()}` }),
    at.prefix,
    {
      id: randomUUID(),
      region,
      watermark: id,
      requestedAtMs: now,
      requestedBy: requesterOf(session),
    },
  );
  return {
    request: requestRowOf(submitted.request, now),
    writerEpoch: submitted.writerEpoch,
    preview,
  };
}

/** `region 1:1 up to 3:7, pending` - the CLI's line for a request. */
export function requestLine(row: WatermarkRequestResult['request']): string {
  const waited = `${Math.round(row.waitedMs / 1000)} s`;
  const base = `request ${row.id}: region ${formatRegionId(row.region)} up to ${formatEntryId(row.watermark)}`;
  if (row.state === 'pending') return `${base}, pending for ${waited}`;
  if (row.state === 'applied')
    return `${base}, applied by epoch ${row.settledEpoch} after ${waited} (watermark ${formatEntryId(row.effective ?? row.watermark)})`;
  return `${base}, rejected by epoch ${row.settledEpoch}: ${row.reason}`;
}
