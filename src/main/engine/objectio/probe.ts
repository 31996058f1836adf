/**
 * The create-if-absent probe, run before a writer opens a store (and by "Test connection").
 * Every protocol in Cairn rests on one primitive, so a store that silently overwrites (an S3
 * that ignores `If-None-Match`, `link()` on a network filesystem) must never get a writer.
 *
 * Owns the probe and the two verdicts that refuse a writer. It writes only one random key under
 * `_probe/` and removes it; it never touches any other key. Read-only use never runs it.
 */
import { randomUUID } from 'node:crypto';
import { CairnError } from '../errors';
import { isStorageError } from './errors';
import type { ObjectIo } from './object-io';

export const PROBE_PREFIX = '_probe/';

export interface ProbeResult {
  /** A second create of the same key was refused with AlreadyExists. */
  readonly enforced: boolean;
  /** The first create was allowed (false with read-only credentials, which can still browse). */
  readonly writable: boolean;
  readonly detail: string;
}

/** The store accepts writes but does not enforce create-if-absent: writers are refused. */
export class CreateIfAbsentNotEnforcedError extends CairnError {
  constructor(
    readonly endpoint: string,
    detail: string,
  ) {
    super(
      'CreateIfAbsentNotEnforced',
      `${endpoint} does not enforce create-if-absent (${detail}); it can be browsed read-only, but no writer may open it`,
      { endpoint, detail },
    );
  }
}

/** The store refuses creates (read-only credentials or filesystem): writers are refused. */
export class ReadOnlyStoreError extends CairnError {
  constructor(
    readonly endpoint: string,
    detail: string,
  ) {
    super(
      'ReadOnlyStore',
      `${endpoint} does not allow creating objects (${detail}); it can be browsed read-only`,
      { endpoint, detail },
    );
  }
}

/**
 * Creates a random key twice and expects the second create to be refused. Unavailable and
 * other undecidable failures are thrown: the probe then says nothing about the store.
 */
export async function probeCreateIfAbsent(io: ObjectIo, root = ''): Promise<ProbeResult> {
  // Under the connection's root: credentials may allow writes there only.
  const under = root === '' || root.endsWith('/') ? root : `${root}/`;
  const key = `${under}${PROBE_PREFIX}${randomUUID()}`;
  const first = bodyOf(key, 'first');
  try {
    await io.putIfAbsent(key, first);
  } catch (error) {
    if (isStorageError(error, 'Backend')) {
      return {
        enforced: false,
        writable: false,
        detail: `creating ${key} was denied: ${error.message}`,
      };
    }
    if (!isStorageError(error, 'OutcomeUnknown') || !(await holds(io, key, first))) throw error;
  }
  try {
    return await secondCreate(io, key);
  } finally {
    await io.delete(key).catch(() => undefined); // A leftover probe key harms nothing.
  }
}

/** Runs the probe and refuses a writer unless creates are allowed and enforced. */
export async function assertWritable(io: ObjectIo, root = ''): Promise<ProbeResult> {
  const result = await probeCreateIfAbsent(io, root);
  if (!result.writable) throw new ReadOnlyStoreError(io.endpoint, result.detail);
  if (!result.enforced) throw new CreateIfAbsentNotEnforcedError(io.endpoint, result.detail);
  return result;
}

async function secondCreate(io: ObjectIo, key: string): Promise<ProbeResult> {
  const second = bodyOf(key, 'second');
  try {
    await io.putIfAbsent(key, second);
  } catch (error) {
    if (isStorageError(error, 'AlreadyExists')) return enforcedResult(key);
    // The refusal may be what was lost: the stored bytes tell whether the second create won.
    if (isStorageError(error, 'OutcomeUnknown'))
      return (await holds(io, key, second)) ? overwrittenResult(key) : enforcedResult(key);
    throw error;
  }
  return overwrittenResult(key);
}

function enforcedResult(key: string): ProbeResult {
  return { enforced: true, writable: true, detail: `a second create of ${key} was refused` };
}

function overwrittenResult(key: string): ProbeResult {
  return {
    enforced: false,
    writable: true,
    detail: `a second create of ${key} succeeded instead of failing with AlreadyExists`,
  };
}

async function holds(io: ObjectIo, key: string, bytes: Uint8Array): Promise<boolean> {
  try {
    const stored = await io.get(key);
    return Buffer.from(stored.bytes).equals(Buffer.from(bytes));
  } catch (error) {
    if (isStorageError(error, 'NotFound')) return false;
    throw error;
  }
}

function bodyOf(key: string, attempt: string): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ probe: key, attempt }));
}
