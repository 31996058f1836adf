/**
 * The `WalEntry` decoder's properties over entries the tests' own encoder makes from the wire
 * format: every entry the spec allows round-trips exactly, every cell text is JSON that reads
 * back, and truncated or mutated payloads give a typed result naming an offset, never a throw.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellJson } from '../../../src/shared/greptime/decode/cell-json';
import { decodeWalEntry } from '../../../src/shared/greptime/decode/decode-entry';
import { entryTable } from '../../../src/shared/greptime/decode/entry-table';
import { walEntry } from './wal-entry-arbitraries';
import { encodeWalEntry } from './wal-entry-encoder';

describe('decodeWalEntry properties', () => {
  it('round-trips every entry the spec allows', () => {
    fc.assert(
      fc.property(walEntry, (entry) => {
        expect(decodeWalEntry(encodeWalEntry(entry))).toEqual({ ok: true, entry });
        // Every cell has a JSON text that parses.
        for (const table of entryTable(entry).mutations)
          for (const row of table.rows) for (const cell of row) JSON.parse(cell);
      }),
      { numRuns: 300 },
    );
  });

  it('writes every string and double as JSON that reads back to the same value', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.double({ noNaN: true }), (text, double) => {
        expect(JSON.parse(cellJson({ kind: 'string', value: text }))).toBe(text);
        expect(JSON.parse(cellJson({ kind: 'f64', value: double }))).toBe(
          Number.isFinite(double) ? double : String(double),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on a truncated payload, and names an offset inside it', () => {
    fc.assert(
      fc.property(walEntry, fc.nat(), (entry, cut) => {
        const bytes = encodeWalEntry(entry);
        if (bytes.length === 0) return;
        const prefix = bytes.subarray(0, cut % bytes.length);
        const decoded = decodeWalEntry(prefix);
        if (!decoded.ok) {
          expect(decoded.failure.offset).toBeGreaterThanOrEqual(0);
          expect(decoded.failure.offset).toBeLessThanOrEqual(prefix.length);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on a mutated payload', () => {
    fc.assert(
      fc.property(
        walEntry,
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 4,
        }),
        (entry, flips) => {
          const bytes = Uint8Array.from(encodeWalEntry(entry));
          if (bytes.length === 0) return;
          for (const [at, byte] of flips) bytes[at % bytes.length] = byte;
          const decoded = decodeWalEntry(bytes);
          if (decoded.ok) entryTable(decoded.entry);
          else expect(decoded.failure.offset).toBeLessThanOrEqual(bytes.length);
        },
      ),
      { numRuns: 500 },
    );
  });
});
