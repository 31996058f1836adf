/**
 * How search reads each object format's segments: the codec the format's region reads use
 * (reader.ts), so a search decodes and checks a segment exactly as a replay of its region
 * does. A format the read side supports is searchable by one line here (the compiler asks for
 * it: the table is keyed by every `WalFormat`).
 */
import { GREPTIMEDB_SEGMENTS } from '../greptimedb/read-only-log';
import { CAIRN_SEGMENTS, type SegmentCodec } from '../wal/reader';
import { CAIRN_FORMAT, type WalFormat } from '../wal-read/format';
import { GT_FORMAT } from '../greptimedb/layout';

export const SEARCH_CODECS: Readonly<Record<WalFormat, SegmentCodec>> = {
  [CAIRN_FORMAT]: CAIRN_SEGMENTS,
  [GT_FORMAT]: GREPTIMEDB_SEGMENTS,
};
