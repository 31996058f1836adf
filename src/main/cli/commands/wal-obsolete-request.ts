/**
 * `cairn wal obsolete --request`: ask the writer holding the prefix - a production writer in
 * another process - to raise a region's watermark at its next register write, without taking
 * its epoch (docs/design/watermark-requests.md). The same bound as `obsolete` (at most the
 * region's latest durable id as read now), one request added to the register, the request
 * appended to the app's audit log; with `--wait <s>` it waits for the writer to settle it and
 * exits 1 if it was rejected or is still pending. Never takes the epoch.
 */
import { randomUUID } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import type { ObjectIo } from '../../engine/objectio/object-io';
import type { ReadOnlyLog } from '../../engine/wal/read-only-log';
import { registerStoreOf } from '../../engine/wal/register';
import type { RegionId } from '../../engine/wal/region-id';
import { readRequests, submitWatermarkRequest } from '../../engine/wal/watermark-requests/submit';
import type { WatermarkRequestRow } from '../../../shared/contract/wal-watermark-requests';
import { requestRowOf } from '../../services/wal/watermark-requests/request-rows';
import { requestLine } from '../../services/wal/watermark-requests/request-obsolete';
import { formatEntryId, formatRegionId } from '../../../shared/id-notation';
import { printJson } from '../output';
import { auditedCliAction } from './cli-audit';
import { UsageError } from '../usage-error';

const POLL_MS = 500;

export interface RequestFlags {
  readonly wait?: string;
  readonly json?: boolean;
}

function waitSecondsOf(text: string | undefined): number {
  if (text === undefined) return 0;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || value > 86_400)
    throw new UsageError(`--wait must be a number of seconds from 0 to 86400, got "${text}"`);
  return value;
}

function who(): string {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // no user entry (a container): the host alone names it
  }
  return `${user}@${hostname()} (cairn CLI)`.slice(0, 200);
}

async function settledRow(
  io: ObjectIo,
  prefix: string,
  id: string,
  waitMs: number,
): Promise<WatermarkRequestRow | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const view = await readRequests(registerStoreOf(io, prefix));
    const found = view?.log.find((request) => request.id === id);
    if (found === undefined) return null;
    if (found.state !== 'pending' || Date.now() >= deadline) return requestRowOf(found, Date.now());
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Submits the request; resolves with the exit code (0 applied or submitted, 1 not applied). */
export async function requestObsoleteFromCli(
  io: ObjectIo,
  log: ReadOnlyLog,
  region: RegionId,
  to: bigint,
  flags: RequestFlags,
  dataDir: string,
): Promise<number> {
  const waitMs = waitSecondsOf(flags.wait) * 1000;
  const prefix = log.prefix;
  const requestedAtMs = Date.now();
  const id = randomUUID();
  const parameters = { prefix, region: formatRegionId(region), to: formatEntryId(to), request: id };
  // Written ahead, as every audited command: no request reaches the register unaudited.
  const submitted = await auditedCliAction(
    dataDir,
    { action: 'cli wal obsolete --request', target: prefix, parameters },
    () =>
      submitWatermarkRequest(registerStoreOf(io, prefix), prefix, {
        id,
        region,
        watermark: to,
        requestedAtMs,
        requestedBy: who(),
      }),
  );
  const row =
    waitMs > 0
      ? await settledRow(io, prefix, submitted.request.id, waitMs)
      : requestRowOf(submitted.request, Date.now());
  const shown = row ?? requestRowOf(submitted.request, Date.now());
  if (flags.json === true)
    printJson({ prefix, writerEpoch: submitted.writerEpoch, request: shown });
  else
    process.stdout.write(
      `${requestLine(shown)}\n` +
        (shown.state === 'pending'
          ? `the writer holding epoch ${submitted.writerEpoch} applies it at its next register write (it is not fenced)\n`
          : ''),
    );
  if (waitMs === 0) return 0;
  return shown.state === 'applied' ? 0 : 1;
}
