/**
 * A bulk entry's time range in nanoseconds, read from its entry's `min_ts` / `max_ts` and the
 * unit its schema message gives the time index column - the schema's flatbuffer only, never the
 * record batch's body - so a search can leave out a bulk entry wholly outside its time range
 * without decoding it (search.md). Where the schema does not say plainly that the time index is
 * an Arrow timestamp (a flatbuffer that does not read, another type, a column past the schema),
 * there is no range: the entry is decoded and its rows decide. Pure.
 */
import type { GtBulkSummary } from '../entry-table';
import type { ArrowIpcParts } from '../decode/walk-entry';
import { BulkDecodeError, Flatbuffer, HEADER_SCHEMA } from './ipc-check';

/** Arrow's `Type` union case of a timestamp (Schema.fbs). */
const TYPE_TIMESTAMP = 10;
/** Nanoseconds per unit of Arrow's `TimeUnit` (SECOND, MILLISECOND, MICROSECOND, NANOSECOND). */
const NANOS_PER_UNIT = [1_000_000_000n, 1_000_000n, 1_000n, 1n];

/** Nanoseconds per value of the time index, or null when the schema does not say it plainly. */
function timeIndexNanos(schema: Uint8Array, index: number): bigint | null {
  try {
    const fb = new Flatbuffer(schema, 'schema');
    const { header } = fb.message(HEADER_SCHEMA);
    const fields = fb.vector(header, 1, 4);
    if (index < 0 || index >= fields.count) return null;
    const field = fb.target(fields.start + 4 * index);
    const typeAt = fb.field(field, 2);
    if (typeAt === 0 || fb.u8(typeAt) !== TYPE_TIMESTAMP) return null;
    const type = fb.reference(field, 3);
    if (type === 0) return null;
    const unitAt = fb.field(type, 0);
    return NANOS_PER_UNIT[unitAt === 0 ? 0 : fb.u16(unitAt)] ?? null;
  } catch (error) {
    if (error instanceof BulkDecodeError) return null;
    throw error;
  }
}

/** The entry's declared time range in nanoseconds, or null when it cannot be had undecoded. */
export function bulkTimeRange(
  summary: GtBulkSummary,
  ipc: ArrowIpcParts | null,
): { readonly min: bigint; readonly max: bigint } | null {
  if (ipc === null) return null;
  const nanos = timeIndexNanos(ipc.schema, summary.timestampIndex);
  if (nanos === null) return null;
  return { min: summary.minTs * nanos, max: summary.maxTs * nanos };
}
