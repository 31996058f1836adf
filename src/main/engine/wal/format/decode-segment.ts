/**
 * Decodes and verifies one segment of a version-1 WAL object from exactly its bytes: what a
 * reader does once per segment it replays, the rest of the object (header, trailer, footer)
 * being `decode.ts`'s. A failure is a `CorruptSegment(key, region)`, so a reader can skip just
 * that segment; records are views into the given bytes (no copy).
 */
import { crc32c } from '@node-rs/crc32';
import { CorruptSegmentError } from '../errors';
import type { EntryId } from '../ids';
import { RECORD_HEADER_SIZE, type SegmentIndex, type SegmentRecord } from './layout';

type SegmentCheck = 'segment-length' | 'segment-crc' | 'segment-framing';

function segmentFailure(
  key: string,
  index: SegmentIndex,
  check: SegmentCheck,
  detail = '',
): CorruptSegmentError {
  return new CorruptSegmentError(key, index.regionId, check, detail);
}

/** Read once per call: under a CommonJS transform every use of an import is a getter call. */
const RECORD_HEADER = RECORD_HEADER_SIZE;

/**
 * The records of one segment, from exactly its bytes: `segment-length`, `segment-crc`, then the
 * framing (`segment-framing`): records fill the segment exactly, ids ascend strictly from the
 * index's `firstId` to its `lastId`, `entries` of them. Each record becomes `make(id, data)`,
 * `data` a view into `bytes` (no copy), so a reader builds its own value in the same pass.
 * Replay runs this once per entry: the loop allocates only the id, the view and `make`'s value
 * (a view made on the buffer directly, since `subarray` costs a species lookup each time).
 * `checksum` is the bytes' CRC32C when the store already took it as it read them.
 */
export function decodeSegmentInto<T>(
  bytes: Uint8Array,
  index: SegmentIndex,
  key: string,
  make: (id: EntryId, data: Uint8Array) => T,
  checksum?: number,
): T[] {
  const end = bytes.length;
  if (end !== index.length)
    throw segmentFailure(
      key,
      index,
      'segment-length',
      `${end} bytes, the footer says ${index.length}`,
    );
  if ((checksum ?? crc32c(bytes)) !== index.segmentCrc)
    throw segmentFailure(key, index, 'segment-crc');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const buffer = bytes.buffer;
  const base = bytes.byteOffset;
  const lastId = index.lastId;
  const records: T[] = [];
  let at = 0;
  let previous = index.firstId - 1n;
  while (at < end) {
    if (at + RECORD_HEADER > end)
      throw segmentFailure(key, index, 'segment-framing', `a record header cut at ${at}`);
    const id = view.getBigUint64(at, true);
    const length = view.getUint32(at + 8, true);
    const start = at + RECORD_HEADER;
    if (start + length > end)
      throw segmentFailure(key, index, 'segment-framing', `record ${id} runs past the segment`);
    if (id <= previous || id > lastId)
      throw segmentFailure(key, index, 'segment-framing', `record ${id} out of order or range`);
    records.push(make(id, new Uint8Array(buffer, base + start, length)));
    previous = id;
    at = start + length;
  }
  // The first record sits at offset 0: its id is read again once rather than kept per record.
  const firstRecordId = records.length === 0 ? null : view.getBigUint64(0, true);
  if (records.length !== index.entries || firstRecordId !== index.firstId || previous !== lastId) {
    throw segmentFailure(
      key,
      index,
      'segment-framing',
      `${records.length} records, the footer says ${index.entries} from ${index.firstId} to ${lastId}`,
    );
  }
  return records;
}

function asRecord(id: EntryId, bytes: Uint8Array): SegmentRecord {
  return { id, bytes };
}

/** `decodeSegmentInto` giving plain records. */
export function decodeSegment(
  bytes: Uint8Array,
  index: SegmentIndex,
  key: string,
): SegmentRecord[] {
  return decodeSegmentInto(bytes, index, key, asRecord);
}
