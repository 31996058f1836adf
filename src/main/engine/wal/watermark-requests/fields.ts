/**
 * The watermark-request fields of the WAL register (docs/design/watermark-requests.md):
 * `cairn.watermark_requests`, the log of requests a console wrote without taking the epoch,
 * and `cairn.requests_reader_epoch`, the epoch whose holder reads them. Decoding, encoding and
 * the log's bound. A register without these fields reads as "no requests" and "no reader" (a
 * register an older Cairn wrote). A malformed field is `MalformedControlField` naming it.
 * Decides nothing about who may write what; never touches storage.
 */
import type { ManifestFields } from '../../manifest/manifest-store';
import { MalformedControlFieldError, u64Of } from '../control-fields';
import type { PendingRequest, RequestAsked, RequestLog, WatermarkRequest } from './request-types';

export const REQUEST_FIELDS = {
  requests: 'cairn.watermark_requests',
  readerEpoch: 'cairn.requests_reader_epoch',
} as const;

/** At most this many requests wait at once; a requester is refused beyond it. */
export const MAX_PENDING_REQUESTS = 16;
/** Settled requests the holder keeps in the field (oldest dropped first). */
export const KEPT_SETTLED_REQUESTS = 32;
/** Bounds of the free-text parts, so one request cannot fill the register. */
export const MAX_REQUEST_ID_CHARS = 64;
export const MAX_REQUESTED_BY_CHARS = 200;
export const MAX_REASON_CHARS = 300;

export type {
  PendingRequest,
  RequestAsked,
  RequestLog,
  RequestSettlement,
  WatermarkRequest,
} from './request-types';

// --- decoding -------------------------------------------------------------------------------

const FIELD = REQUEST_FIELDS.requests;

function malformed(reason: string): never {
  throw new MalformedControlFieldError(FIELD, reason);
}

function u64(value: unknown, what: string): bigint {
  return u64Of(FIELD, value, what);
}

function millis(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    malformed(`${what} must be a non-negative integer, got ${JSON.stringify(value)}`);
  return value;
}

function text(value: unknown, what: string, max: number): string {
  if (typeof value !== 'string' || value.length > max)
    malformed(`${what} must be a string of at most ${max} characters`);
  return value;
}

function decodeAsked(record: Record<string, unknown>, at: number): RequestAsked {
  const id = text(record.id, `request ${at} id`, MAX_REQUEST_ID_CHARS);
  if (id === '') malformed(`request ${at} has an empty id`);
  return {
    id,
    region: u64(record.region, `request ${at} region`),
    watermark: u64(record.watermark, `request ${at} watermark`),
    requestedAtMs: millis(record.requestedAtMs, `request ${at} requestedAtMs`),
    requestedBy: text(record.requestedBy, `request ${at} requestedBy`, MAX_REQUESTED_BY_CHARS),
  };
}

function decodeRequest(value: unknown, at: number): WatermarkRequest {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    malformed(`request ${at} must be a JSON object`);
  const record = value as Record<string, unknown>;
  const asked = decodeAsked(record, at);
  if (record.state === 'pending') return { ...asked, state: 'pending' };
  const epoch = u64(record.epoch, `request ${at} epoch`);
  const settledAtMs = millis(record.settledAtMs, `request ${at} settledAtMs`);
  if (record.state === 'applied')
    return {
      ...asked,
      state: 'applied',
      epoch,
      settledAtMs,
      effective: u64(record.effective, `request ${at} effective`),
    };
  if (record.state === 'rejected')
    return {
      ...asked,
      state: 'rejected',
      epoch,
      settledAtMs,
      reason: text(record.reason, `request ${at} reason`, MAX_REASON_CHARS),
    };
  return malformed(`request ${at} has state ${JSON.stringify(record.state)}`);
}

/** The request log a register holds; empty when the field is absent (an older register). */
export function decodeRequestLog(fields: ManifestFields): RequestLog {
  const raw = fields[FIELD];
  if (raw === undefined) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw) as unknown;
  } catch {
    return malformed('is not JSON');
  }
  if (!Array.isArray(value)) malformed('must be a JSON array');
  const log = value.map((record: unknown, at) => decodeRequest(record, at));
  const ids = new Set<string>();
  for (const request of log) {
    if (ids.has(request.id)) malformed(`request id ${request.id} appears twice`);
    ids.add(request.id);
  }
  return log;
}

/** The epoch whose holder reads requests, or null when no holder ever said it does. */
export function decodeReaderEpoch(fields: ManifestFields): bigint | null {
  const raw = fields[REQUEST_FIELDS.readerEpoch];
  return raw === undefined ? null : u64Of(REQUEST_FIELDS.readerEpoch, raw, 'the reader epoch');
}

// --- encoding -------------------------------------------------------------------------------

function encodeRequest(request: WatermarkRequest): Record<string, unknown> {
  const asked = {
    id: request.id,
    region: request.region.toString(),
    watermark: request.watermark.toString(),
    requestedAtMs: request.requestedAtMs,
    requestedBy: request.requestedBy,
    state: request.state,
  };
  if (request.state === 'pending') return asked;
  const settled = {
    ...asked,
    epoch: request.epoch.toString(),
    settledAtMs: request.settledAtMs,
  };
  return request.state === 'applied'
    ? { ...settled, effective: request.effective.toString() }
    : { ...settled, reason: request.reason };
}

/** The field's text for `log`, in the log's order (one log always gives one text). */
export function encodeRequestLog(log: RequestLog): string {
  return JSON.stringify(log.map(encodeRequest));
}

/** `fields` with the request log replaced (the field dropped when the log is empty and was absent). */
export function withRequestLog(fields: ManifestFields, log: RequestLog): Record<string, string> {
  if (log.length === 0 && fields[FIELD] === undefined) return { ...fields };
  return { ...fields, [FIELD]: encodeRequestLog(log) };
}

/** `fields` stamped as read by the holder of `epoch` (every write of a holder that reads them). */
export function withReaderEpoch(fields: ManifestFields, epoch: bigint): Record<string, string> {
  return { ...fields, [REQUEST_FIELDS.readerEpoch]: epoch.toString() };
}

export function pendingOf(log: RequestLog): PendingRequest[] {
  return log.filter((request): request is PendingRequest => request.state === 'pending');
}

/**
 * The log with its settled requests bounded: every pending request stays (dropping one would
 * lose it silently); settled ones beyond `KEPT_SETTLED_REQUESTS` go, oldest first.
 */
export function boundedLog(log: RequestLog): RequestLog {
  const settled = log.filter((request) => request.state !== 'pending').length;
  let surplus = settled - KEPT_SETTLED_REQUESTS;
  if (surplus <= 0) return log;
  return log.filter((request) => {
    if (request.state === 'pending' || surplus <= 0) return true;
    surplus -= 1;
    return false;
  });
}
