/**
 * How people read and type WAL ids: an entry id as `seq:position` (`65:1`: the object with
 * sequence 65, first entry of its region there; seq = id >> 20, position = id & (2^20 - 1))
 * and a region id as `table:region` (the u64 `table << 32 | region`). Both also as the raw
 * decimal u64. The one place that parses and formats them: the contract, the views, their
 * search fields and the CLI's output all call these. Pure; it never says whether an id was
 * assigned.
 */

const POSITION_BITS = 20n;
const POSITION_MASK = (1n << POSITION_BITS) - 1n;
const SEQ_LIMIT = 1n << 44n;
const U32_LIMIT = 1n << 32n;
const U64_LIMIT = 1n << 64n;

const PAIR = /^(\d{1,20}):(\d{1,20})$/;
const DECIMAL = /^\d{1,20}$/;

/** `seq:position` for an entry id (`0:0` is the "none" id). */
export function formatEntryId(id: bigint): string {
  return `${id >> POSITION_BITS}:${id & POSITION_MASK}`;
}

/** `table:region` for a region id. */
export function formatRegionId(region: bigint): string {
  return `${region >> 32n}:${region & (U32_LIMIT - 1n)}`;
}

/**
 * An entry id typed as `seq:position` (seq below 2^44, position below 2^20) or a decimal
 * u64; null when it is neither.
 */
export function parseEntryId(text: string): bigint | null {
  const trimmed = text.trim();
  const pair = PAIR.exec(trimmed);
  if (pair !== null) {
    const seq = BigInt(pair[1] ?? '');
    const position = BigInt(pair[2] ?? '');
    return seq < SEQ_LIMIT && position <= POSITION_MASK ? (seq << POSITION_BITS) | position : null;
  }
  return parseU64(trimmed);
}

/** A region id typed as `table:region` (two u32) or a decimal u64; null when it is neither. */
export function parseRegionId(text: string): bigint | null {
  const trimmed = text.trim();
  const pair = PAIR.exec(trimmed);
  if (pair !== null) {
    const table = BigInt(pair[1] ?? '');
    const region = BigInt(pair[2] ?? '');
    return table < U32_LIMIT && region < U32_LIMIT ? (table << 32n) | region : null;
  }
  return parseU64(trimmed);
}

function parseU64(trimmed: string): bigint | null {
  if (!DECIMAL.test(trimmed)) return null;
  const raw = BigInt(trimmed);
  return raw < U64_LIMIT ? raw : null;
}

/**
 * The fields that hold an entry id or a region id wherever they appear in a report the CLI
 * or an export prints (`regions[].latestId`, a replay line's `id`...): named by the domain, so
 * a new report with the same words is printed the same way.
 */
const ENTRY_ID_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'firstId',
  'lastId',
  'latestId',
  'latest',
  'watermark',
]);
const REGION_ID_FIELDS: ReadonlySet<string> = new Set(['regionId', 'region']);

/**
 * An id field as scripts read it: the notation people type under its own name and the decimal
 * u64 beside it (`{"id":"1500:17","idU64":"1572864017"}`); null when `field` names no id.
 */
export function idFieldsOf(field: string, id: bigint): Record<string, string> | null {
  const shown = ENTRY_ID_FIELDS.has(field)
    ? formatEntryId(id)
    : REGION_ID_FIELDS.has(field)
      ? formatRegionId(id)
      : null;
  return shown === null ? null : { [field]: shown, [`${field}U64`]: id.toString() };
}
