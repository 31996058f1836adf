/**
 * The register's watermark requests as the console and the CLI show them: each with how long
 * it waited (a pending one: until now), newest first, and who holds the register - whether
 * its writer reads requests and looks live. Reads the register; writes nothing.
 */
import type {
  WatermarkRequestRow,
  WatermarkRequestsView,
} from '../../../../shared/contract/wal-watermark-requests';
import type { ObjectIo } from '../../../engine/objectio/object-io';
import { registerStoreOf } from '../../../engine/wal/register';
import type { WatermarkRequest } from '../../../engine/wal/watermark-requests/fields';
import { readRequests } from '../../../engine/wal/watermark-requests/submit';
import { registerHolderOf } from '../register-holder';

export function requestRowOf(request: WatermarkRequest, nowMs: number): WatermarkRequestRow {
  const settled = request.state === 'pending' ? null : request;
  const end = settled?.settledAtMs ?? nowMs;
  return {
    id: request.id,
    region: request.region,
    watermark: request.watermark,
    requestedAtMs: request.requestedAtMs,
    requestedBy: request.requestedBy,
    state: request.state,
    waitedMs: Math.max(0, end - request.requestedAtMs),
    settledEpoch: settled?.epoch ?? null,
    settledAtMs: settled?.settledAtMs ?? null,
    effective: request.state === 'applied' ? request.effective : null,
    reason: request.state === 'rejected' ? request.reason : null,
  };
}

/** The prefix's requests (an empty view when no writer ever opened it). */
export async function watermarkRequestsOf(
  io: ObjectIo,
  prefix: string,
  openInApp: boolean,
  nowMs = Date.now(),
): Promise<WatermarkRequestsView> {
  const [view, holder] = await Promise.all([
    readRequests(registerStoreOf(io, prefix)),
    registerHolderOf(io, prefix, openInApp, nowMs),
  ]);
  return {
    prefix,
    writerEpoch: view?.writerEpoch ?? 0n,
    holderReads: view?.holderReads ?? false,
    holderLive: holder?.live ?? false,
    holderWrittenAgoMs: holder?.writtenAgoMs ?? null,
    requests: (view?.log ?? []).map((request) => requestRowOf(request, nowMs)).reverse(),
  };
}
