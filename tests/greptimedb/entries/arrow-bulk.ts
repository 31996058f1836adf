/**
 * Bulk entries for the tests, built with apache-arrow's own IPC writer: a table's one-batch
 * stream cut into the three parts GreptimeDB's Flight encoder writes (the schema message's
 * flatbuffer, the record batch message's flatbuffer, the body), and a `WalEntry` holding them.
 */
import { tableToIPC, type Table } from 'apache-arrow';
import { expect } from 'vitest';
import { Wire } from './wal-entry-encoder';

export interface Parts {
  schema: Uint8Array;
  dataHeader: Uint8Array;
  payload: Uint8Array;
}

/** A one-batch IPC stream cut into its schema flatbuffer, batch flatbuffer and body. */
export function partsOf(table: Table): Parts {
  const stream = tableToIPC(table, 'stream');
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  const message = (at: number): [Uint8Array, number] => {
    expect(view.getUint32(at, true)).toBe(0xffffffff);
    const length = view.getInt32(at + 4, true);
    return [stream.slice(at + 8, at + 8 + length), at + 8 + length];
  };
  const [schema, next] = message(0);
  const [dataHeader, body] = message(next);
  // The body runs to the end-of-stream marker.
  return { schema, dataHeader, payload: stream.slice(body, stream.length - 8) };
}

/** A `WalEntry` holding one bulk entry (no body when `parts` is null). */
export function bulkEntry(
  parts: Parts | null,
  sequence: bigint,
  minTs: bigint,
  maxTs: bigint,
  index: number,
): Uint8Array {
  return new Wire()
    .message(2, (b) => {
      b.int(1, sequence).int(2, maxTs).int(3, minTs).int(4, index);
      if (parts !== null)
        b.message(5, (a) => a.len(1, parts.schema).len(2, parts.dataHeader).len(3, parts.payload));
    })
    .done();
}
