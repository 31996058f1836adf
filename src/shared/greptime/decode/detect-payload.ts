/**
 * What a replayed payload is, for the two kinds of prefix: on a GreptimeDB prefix every
 * payload is a `WalEntry` or damage (shown raw with its reason and offset); on Cairn's own
 * prefixes, which carry whatever an application appended, a payload is shown as rows only
 * when it decodes as a `WalEntry` with a plausible schema, else as JSON when it is JSON text,
 * else raw. Many short byte strings happen to be valid protobuf, hence the plausibility test
 * (mutations with named, typed, unique columns and full rows). Pure.
 */
import type { PayloadDecoding } from '../entry-table';
import { decodeWalEntry } from './decode-entry';
import { entryTable } from './entry-table';
import { COLUMN_DATA_TYPE_NAMES, SEMANTIC_TYPE_NAMES, type GtWalEntry } from './wal-entry';

export function decodeGreptimePayload(bytes: Uint8Array): PayloadDecoding {
  const decoded = decodeWalEntry(bytes);
  return decoded.ok
    ? { kind: 'wal-entry', table: entryTable(decoded.entry) }
    : { kind: 'not-wal-entry', failure: decoded.failure };
}

/** A `WalEntry` an application could have meant: something in it, every part well formed. */
export function isPlausibleWalEntry(entry: GtWalEntry): boolean {
  if (entry.mutations.length + entry.bulkEntries.length === 0) return false;
  if (entry.bulkEntries.some((bulk) => bulk.arrowIpc === null)) return false;
  return entry.mutations.every((mutation) => {
    const rows = mutation.rows;
    if (rows === null || rows.schema.length === 0 || rows.rows.length === 0) return false;
    if (mutation.opType !== 0 && mutation.opType !== 1) return false;
    const names = new Set(rows.schema.map((column) => column.name));
    return (
      names.size === rows.schema.length &&
      rows.schema.every(
        (column) =>
          column.name !== '' &&
          COLUMN_DATA_TYPE_NAMES[column.datatype] !== undefined &&
          SEMANTIC_TYPE_NAMES[column.semanticType] !== undefined,
      ) &&
      rows.rows.every((row) => row.length === rows.schema.length)
    );
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isJsonText(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  try {
    JSON.parse(utf8.decode(bytes));
    return true;
  } catch {
    return false;
  }
}

/** A payload on one of Cairn's own prefixes: rows when it is plausibly a `WalEntry`. */
export function detectPayload(bytes: Uint8Array): PayloadDecoding {
  const decoded = decodeWalEntry(bytes);
  if (decoded.ok && isPlausibleWalEntry(decoded.entry))
    return { kind: 'wal-entry', table: entryTable(decoded.entry) };
  return isJsonText(bytes) ? { kind: 'json' } : { kind: 'raw' };
}

/** A payload as the prefix's kind says to read it: every one a `WalEntry` on GreptimeDB's. */
export function decodePayload(bytes: Uint8Array, onGreptimePrefix: boolean): PayloadDecoding {
  return onGreptimePrefix ? decodeGreptimePayload(bytes) : detectPayload(bytes);
}
