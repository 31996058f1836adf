/**
 * What a replayed payload is, for the two kinds of prefix: on a GreptimeDB prefix every
 * payload is a `WalEntry` or damage (shown raw with its reason and offset); on Cairn's own
 * prefixes, which carry whatever an application appended, a payload is shown as rows only
 * when it decodes as a `WalEntry` with a plausible schema, else as JSON when it is JSON text,
 * else raw. Many short byte strings happen to be valid protobuf, hence the plausibility test
 * (mutations with named, typed, unique columns and full rows). Two ways to find it out, with
 * the same verdict: `decodePayload` makes the tables (the CLI, the console's page),
 * `checkPayload` walks every field the same way but only counts (a replay job in the main
 * process, whose page makes the tables of what it shows). Pure.
 */
import type { PayloadCheck, PayloadDecoding, PayloadOther } from '../entry-table';
import { decodeEntryTable, type BulkRowsDecoder } from './decode-table';
import { walkWalEntry, type RowsBuilder, type WalkedEntry } from './walk-entry';
import { COLUMN_DATA_TYPE_NAMES, SEMANTIC_TYPE_NAMES } from './wal-entry';

/** A `WalEntry` an application could have meant: something in it, every part well formed. */
export function isPlausible(entry: WalkedEntry<unknown>): boolean {
  if (entry.mutations.length + entry.bulkEntries.length === 0) return false;
  if (entry.bulkEntries.some((bulk) => bulk.ipc === null)) return false;
  return entry.mutations.every((mutation) => {
    const shape = mutation.rows?.shape;
    if (shape === undefined || shape.schema.length === 0 || shape.rows === 0) return false;
    if (mutation.opType !== 0 && mutation.opType !== 1) return false;
    const names = new Set(shape.schema.map((column) => column.name));
    return (
      names.size === shape.schema.length &&
      shape.schema.every(
        (column) =>
          column.name !== '' &&
          COLUMN_DATA_TYPE_NAMES[column.datatype] !== undefined &&
          SEMANTIC_TYPE_NAMES[column.semanticType] !== undefined,
      ) &&
      !shape.ragged
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

/** A payload that is not rows, as the prefix's kind says to show it. */
function otherPayload(
  bytes: Uint8Array,
  onGreptimePrefix: boolean,
  failure: Extract<PayloadOther, { kind: 'not-wal-entry' }>['failure'] | null,
): PayloadOther {
  if (onGreptimePrefix && failure !== null) return { kind: 'not-wal-entry', failure };
  return isJsonText(bytes) ? { kind: 'json' } : { kind: 'raw' };
}

/**
 * A payload as the prefix's kind says to read it, decoded to its tables: every one a
 * `WalEntry` on GreptimeDB's, a plausible one on Cairn's; bulk entries' rows by `decodeBulk`.
 */
export function decodePayload(
  bytes: Uint8Array,
  onGreptimePrefix: boolean,
  decodeBulk?: BulkRowsDecoder,
): PayloadDecoding {
  const decoded = decodeEntryTable(bytes, decodeBulk);
  if (decoded.ok && (onGreptimePrefix || isPlausible(decoded.entry)))
    return { kind: 'wal-entry', table: decoded.table };
  return otherPayload(bytes, onGreptimePrefix, decoded.ok ? null : decoded.failure);
}

/** Counts only: the walk of every field, no cell made. */
export const COUNT_ONLY: RowsBuilder<null> = {
  begin: () => undefined,
  row: () => undefined,
  cell: () => undefined,
  end: () => null,
};

/** The verdict of `decodePayload` without its tables: a `WalEntry` as what it holds. */
export function checkPayload(bytes: Uint8Array, onGreptimePrefix: boolean): PayloadCheck {
  const walked = walkWalEntry(bytes, COUNT_ONLY);
  if (walked.ok && (onGreptimePrefix || isPlausible(walked.entry))) {
    const { mutations, bulkEntries } = walked.entry;
    const rows = mutations.reduce((sum, mutation) => sum + (mutation.rows?.shape.rows ?? 0), 0);
    return {
      kind: 'wal-entry',
      summary: { mutations: mutations.length, rows, bulk: bulkEntries.length },
    };
  }
  return otherPayload(bytes, onGreptimePrefix, walked.ok ? null : walked.failure);
}
