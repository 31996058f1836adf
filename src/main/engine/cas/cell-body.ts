/**
 * The body codec of one stored CasCell version: `{ version, writerId, nonce, fields }` as
 * UTF-8 JSON. Owns validation of what comes back from storage, so a body that is not a
 * version of this cell - unparsable, or naming another version than its key - surfaces as
 * a typed corruption error and never as a state. Never touches storage.
 */
import { z } from 'zod';
import { CellCorruptError } from './errors';
import type { CellFields } from './cell-snapshot';

const cellBodySchema = z.object({
  version: z.number().int().min(1),
  writerId: z.string(),
  nonce: z.string().min(1),
  fields: z.record(z.string(), z.string()),
});

export interface CellBody {
  readonly version: number;
  readonly writerId: string;
  /** Random per create attempt: tells this attempt from any other, even of the same writer. */
  readonly nonce: string;
  readonly fields: CellFields;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export function encodeCellBody(body: CellBody): Uint8Array {
  return encoder.encode(JSON.stringify(body));
}

/** Decode the body stored at `key`, which names `expectedVersion`. */
export function decodeCellBody(
  bytes: Uint8Array,
  key: string,
  endpoint: string,
  expectedVersion: number,
): CellBody {
  const parsed = cellBodySchema.safeParse(parseJson(bytes, key, endpoint));
  if (!parsed.success)
    throw new CellCorruptError(
      key,
      endpoint,
      `body is not a register version: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
    );
  if (parsed.data.version !== expectedVersion) {
    throw new CellCorruptError(
      key,
      endpoint,
      `body says version ${parsed.data.version}, key says ${expectedVersion}`,
    );
  }
  return { ...parsed.data, fields: Object.freeze({ ...parsed.data.fields }) };
}

function parseJson(bytes: Uint8Array, key: string, endpoint: string): unknown {
  try {
    return JSON.parse(decoder.decode(bytes));
  } catch (error) {
    throw new CellCorruptError(
      key,
      endpoint,
      `body is not UTF-8 JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
