/**
 * The requester's side (docs/design/watermark-requests.md, "Submit"): add one pending request
 * to the register without taking the epoch. The version it writes keeps every other field
 * byte for byte and appends to the log, which is exactly what the holder's adoption rule
 * accepts, so the live writer is not fenced. Refuses (writing nothing) when the holder does
 * not read requests, or too many wait. Idempotent by request id: after a lost response the
 * next read shows whether the request landed. Never prunes, never writes any other field.
 */
import { ConflictError } from '../../cas/errors';
import type { ManifestStore, VersionedManifest } from '../../manifest/manifest-store';
import { decodeControlFields } from '../control-fields';
import { isStorageError } from '../../objectio/errors';
import {
  decodeReaderEpoch,
  decodeRequestLog,
  MAX_PENDING_REQUESTS,
  pendingOf,
  withRequestLog,
  type RequestAsked,
  type RequestLog,
  type WatermarkRequest,
} from './fields';
import {
  NoRegisterError,
  RegisterBusyError,
  RequestsNotAcceptedError,
  TooManyPendingRequestsError,
} from './errors';

/** Attempts before `RegisterBusy`: each lost one is another writer's progress. */
export const SUBMIT_ATTEMPTS = 8;

export interface RequestsView {
  readonly writerEpoch: bigint;
  readonly writerId: string;
  /** Whether the current holder reads requests (its epoch stamped the reader field). */
  readonly holderReads: boolean;
  readonly log: RequestLog;
}

export function requestsViewOf(manifest: VersionedManifest): RequestsView {
  const control = decodeControlFields(manifest.fields);
  return {
    writerEpoch: control.writerEpoch,
    writerId: control.writerId,
    holderReads: decodeReaderEpoch(manifest.fields) === control.writerEpoch,
    log: decodeRequestLog(manifest.fields),
  };
}

/** The register's requests as a read-only reader sees them (null: no register). */
export async function readRequests(store: ManifestStore): Promise<RequestsView | null> {
  const manifest = await store.read();
  return manifest === null ? null : requestsViewOf(manifest);
}

export interface SubmitResult {
  readonly request: WatermarkRequest;
  /** The epoch that held the register when the request was written. */
  readonly writerEpoch: bigint;
}

function refusalOf(prefix: string, view: RequestsView): Error | null {
  if (!view.holderReads) return new RequestsNotAcceptedError(prefix, view.writerEpoch);
  const pending = pendingOf(view.log).length;
  if (pending >= MAX_PENDING_REQUESTS) return new TooManyPendingRequestsError(prefix, pending);
  return null;
}

/** Adds `asked` as a pending request (or finds it already there). */
export async function submitWatermarkRequest(
  store: ManifestStore,
  prefix: string,
  asked: RequestAsked,
): Promise<SubmitResult> {
  for (let attempt = 1; attempt <= SUBMIT_ATTEMPTS; attempt += 1) {
    const manifest = await store.read();
    if (manifest === null) throw new NoRegisterError(prefix);
    const view = requestsViewOf(manifest);
    const mine = view.log.find((request) => request.id === asked.id);
    if (mine !== undefined) return { request: mine, writerEpoch: view.writerEpoch };
    const refusal = refusalOf(prefix, view);
    if (refusal !== null) throw refusal;
    const pending: WatermarkRequest = { ...asked, state: 'pending' };
    try {
      await store.update(manifest.version, withRequestLog(manifest.fields, [...view.log, pending]));
      return { request: pending, writerEpoch: view.writerEpoch };
    } catch (error) {
      // Conflict: someone wrote first - read again. A transient failure may have applied:
      // the next read (the store settles its unknown outcome first) shows whether it did.
      const transient = isStorageError(error, 'Unavailable');
      if (!(error instanceof ConflictError) && !transient) throw error;
      if (transient && attempt === SUBMIT_ATTEMPTS) throw error;
    }
  }
  throw new RegisterBusyError(prefix, SUBMIT_ATTEMPTS);
}
