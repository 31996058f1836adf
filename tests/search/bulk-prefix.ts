/**
 * A GreptimeDB prefix whose entries hold bulk entries (Arrow IPC bodies built with
 * apache-arrow's own writer) beside mutations, for searching: per object and region an entry
 * with a mutation, one with a mutation and a bulk entry, one with a bulk entry alone. Object
 * k's bulk rows lie in hour k after T0 (`min_ts` / `max_ts` say so), so a time range of whole
 * hours lets exactly the bulk entries of its hours in. One bulk entry's body is cut (it gives no
 * rows: `too-large`), one has no body (`no-body`); both in hour BROKEN_HOUR.
 */
import {
  Float64,
  Table,
  TimestampMillisecond,
  TimestampSecond,
  Utf8,
  vectorFromArray,
} from 'apache-arrow';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { bulkEntry, partsOf } from '../greptimedb/entries/arrow-bulk';
import { column, encodeWalEntry } from '../greptimedb/entries/wal-entry-encoder';
import { GtPrefixBuilder } from '../greptimedb/gt-encoder';
import { T0 } from './search-prefix';

export const BULK_PREFIX = 'datanodes/11/epochs/1';
export const BULK_REGIONS = [1, 2, 3].map((n) => makeRegionId(77, n));
export const BULK_OBJECTS = 6;
/** The hour whose object holds the two bulk entries that give no rows. */
export const BROKEN_HOUR = 4;
const HOUR = 3_600_000n;

function mutationOf(object: number, region: number, entry: number): Uint8Array {
  const n = object * 17 + region * 5 + entry;
  return encodeWalEntry({
    mutations: [
      {
        opType: n % 4 === 0 ? 0 : 1,
        sequence: BigInt(object * 1000 + entry * 10),
        rows: {
          schema: [column('host', 12, 0), column('ts', 16, 2), column('cpu', 10, 1)],
          rows: [0, 1].map((row) => [
            { kind: 'string', value: `web-${(n + row) % 6}` },
            { kind: 'timestamp', unit: 'ms', value: T0 + BigInt(object) * HOUR + BigInt(row) },
            { kind: 'f64', value: (n * 7 + row) % 100 },
          ]),
        },
        primaryKeyEncoding: null,
      },
    ],
    bulkEntries: [],
  });
}

/**
 * A bulk entry of object `object`: three rows in its hour; in seconds in odd objects (the
 * declared range then in seconds too), in milliseconds in even ones.
 */
function bulkOf(object: number, region: number, entry: number): Uint8Array {
  const n = object * 13 + region * 3 + entry;
  const start = T0 + BigInt(object) * HOUR + BigInt(n % 5) * 60_000n;
  const times = [0n, 1000n, 59_000n].map((d) => start + d);
  const seconds = object % 2 === 1;
  const parts = partsOf(
    new Table({
      host: vectorFromArray(
        [0, 1, 2].map((r) => `web-${(n + r) % 6}`),
        new Utf8(),
      ),
      ts: seconds
        ? vectorFromArray(
            // Arrow's builder takes a second timestamp as epoch milliseconds.
            times.map((t) => Number(t)),
            new TimestampSecond(),
          )
        : vectorFromArray(times, new TimestampMillisecond()),
      cpu: vectorFromArray(
        [0, 1, 2].map((r) => (n * 11 + r) % 100),
        new Float64(),
      ),
    }),
  );
  const scale = seconds ? 1000n : 1n;
  const sequence = BigInt(object * 1000 + 500 + entry * 10);
  const [min, max] = [times[0]! / scale, times[2]! / scale];
  if (object === BROKEN_HOUR && region === 0 && entry === 2)
    return bulkEntry({ ...parts, payload: parts.payload.subarray(0, 8) }, sequence, min, max, 1);
  if (object === BROKEN_HOUR && region === 1 && entry === 2)
    return bulkEntry(null, sequence, min, max, 1);
  return bulkEntry(parts, sequence, min, max, 1);
}

function entriesOf(object: number, region: number): Uint8Array[] {
  return [
    mutationOf(object, region, 0),
    // A WalEntry's repeated fields concatenate: a mutation, then a bulk entry.
    Uint8Array.from([...mutationOf(object, region, 1), ...bulkOf(object, region, 1)]),
    bulkOf(object, region, 2),
  ];
}

/** Bulk entries in the prefix: two per object and region. */
export const BULK_ENTRIES = BULK_OBJECTS * BULK_REGIONS.length * 2;

export async function writeBulkSearchPrefix(io: ObjectIo): Promise<void> {
  const builder = new GtPrefixBuilder(BULK_PREFIX);
  builder.openInstance();
  for (let object = 0; object < BULK_OBJECTS; object++)
    builder.append(BULK_REGIONS.map((region, at) => [region, entriesOf(object, at)] as const));
  await builder.writeTo(io);
}

/** `--since` / `--until` of whole hours after T0 (UTC ISO). */
export function hours(from: number, to: number): { since: string; until: string } {
  const iso = (hour: number) => new Date(Number(T0 + BigInt(hour) * HOUR)).toISOString();
  return { since: iso(from), until: iso(to) };
}
