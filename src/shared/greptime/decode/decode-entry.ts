/**
 * A WAL entry's payload decoded to typed values (`GtWalEntry`): every value with the wire's
 * kind, 64-bit integers as bigint, timestamps with their unit. The exact reading of a payload
 * that the tests hold the spec to, and the one the cell texts of `entryTable` are checked
 * against; the console and the CLI run the cheaper decoders of the same walk (decode-table.ts,
 * check-entry.ts). The result is typed and never thrown. Pure.
 */
import type { EntryDecodeFailure } from '../entry-table';
import type { EntryReader } from './entry-reader';
import { typedOf, type ScannedValue } from './decode-value';
import { walkWalEntry, type RowsBuilder } from './walk-entry';
import type { GtValue, GtWalEntry } from './wal-entry';

export type WalEntryDecoding =
  | { readonly ok: true; readonly entry: GtWalEntry }
  | { readonly ok: false; readonly failure: EntryDecodeFailure };

class TypedRows implements RowsBuilder<GtValue[][]> {
  private rows: GtValue[][] = [];
  private current: GtValue[] = [];

  begin(): void {
    this.rows = [];
  }

  row(): void {
    this.current = [];
    this.rows.push(this.current);
  }

  cell(d: EntryReader, scanned: ScannedValue): void {
    this.current.push(typedOf(d, scanned));
  }

  end(): GtValue[][] {
    return this.rows;
  }
}

/** The payload as a `WalEntry`, or the typed reason it is not one. Never throws on the bytes. */
export function decodeWalEntry(bytes: Uint8Array): WalEntryDecoding {
  const walked = walkWalEntry(bytes, new TypedRows());
  if (!walked.ok) return walked;
  return {
    ok: true,
    entry: {
      mutations: walked.entry.mutations.map((mutation) => ({
        opType: mutation.opType,
        sequence: mutation.sequence,
        rows:
          mutation.rows === null
            ? null
            : { schema: mutation.rows.shape.schema, rows: mutation.rows.built },
        primaryKeyEncoding: mutation.primaryKeyEncoding,
      })),
      bulkEntries: walked.entry.bulkEntries.map((bulk) => bulk.summary),
    },
  };
}
