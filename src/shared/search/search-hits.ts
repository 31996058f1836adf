/**
 * What a search of a prefix finds and the texts it is printed as, shared by `cairn wal search`
 * and the console's Search export so both print the same bytes for the same hits: a GreptimeDB
 * hit is a row (the row line and CSV of replay --rows), a hit on Cairn's prefixes an entry
 * (`region`, `id` with their decimals, `size`, then its payload as `text` when it is UTF-8, else
 * `base64`). The CSV header is the fixed keys and every column of the hits, in the order first
 * met. Counts per region print as `{region, regionU64, hits}`. Pure.
 */
import { formatEntryId, formatRegionId } from '../id-notation';
import type { GtColumnView } from '../greptime/entry-table';
import { csvHeader, csvLine, rowLine, type ReplayRow } from '../greptime/replay-rows';
import { csvText } from '../greptime/csv-cell';

export interface EntryHit {
  readonly region: bigint;
  readonly id: bigint;
  /** The whole payload. */
  readonly data: Uint8Array;
}

export type SearchHit =
  | { readonly kind: 'row'; readonly row: ReplayRow }
  | { readonly kind: 'entry'; readonly entry: EntryHit };

export function regionOfHit(hit: SearchHit): bigint {
  return hit.kind === 'row' ? hit.row.region : hit.entry.region;
}

export function idOfHit(hit: SearchHit): bigint {
  return hit.kind === 'row' ? hit.row.id : hit.entry.id;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The payload as text when it is UTF-8, else null. */
export function payloadTextOf(data: Uint8Array): string | null {
  try {
    return utf8.decode(data);
  } catch {
    return null;
  }
}

function base64Of(data: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < data.length; at += 0x8000)
    binary += String.fromCharCode(...data.subarray(at, at + 0x8000));
  return btoa(binary);
}

function idFields(region: bigint, id: bigint): string {
  return `"region":"${formatRegionId(region)}","regionU64":"${region}","id":"${formatEntryId(id)}","idU64":"${id}"`;
}

/** One NDJSON line of an entry hit, without its newline. */
export function entryHitLine(entry: EntryHit): string {
  const text = payloadTextOf(entry.data);
  const payload =
    text === null ? `"base64":"${base64Of(entry.data)}"` : `"text":${JSON.stringify(text)}`;
  return `{${idFields(entry.region, entry.id)},"size":${entry.data.length},${payload}}`;
}

export const ENTRY_CSV_HEADER = 'region,regionU64,id,idU64,size,text,base64';

export function entryHitCsvLine(entry: EntryHit): string {
  const text = payloadTextOf(entry.data);
  return [
    formatRegionId(entry.region),
    entry.region.toString(),
    formatEntryId(entry.id),
    entry.id.toString(),
    String(entry.data.length),
    text ?? '',
    text === null ? base64Of(entry.data) : '',
  ]
    .map(csvText)
    .join(',');
}

/** One NDJSON line of a hit, without its newline. */
export function hitLine(hit: SearchHit): string {
  return hit.kind === 'row' ? rowLine(hit.row) : entryHitLine(hit.entry);
}

/** Every column of the rows among `hits`, by key, in the order first met. */
export class HitColumns {
  private readonly byKey = new Map<string, GtColumnView>();

  add(hit: SearchHit): void {
    if (hit.kind !== 'row') return;
    for (const column of hit.row.columns)
      if (!this.byKey.has(column.key)) this.byKey.set(column.key, column);
  }

  columns(): GtColumnView[] {
    return [...this.byKey.values()];
  }
}

/** The CSV header of hits of one kind (rows under `columns`). */
export function hitCsvHeader(kind: SearchHit['kind'], columns: readonly GtColumnView[]): string {
  return kind === 'row' ? csvHeader(columns) : ENTRY_CSV_HEADER;
}

export function hitCsvLine(hit: SearchHit, columns: readonly GtColumnView[]): string {
  return hit.kind === 'row' ? csvLine(hit.row, columns) : entryHitCsvLine(hit.entry);
}

/** The hits as an NDJSON document. */
export function hitsNdjson(hits: readonly SearchHit[]): string {
  return hits.map((hit) => `${hitLine(hit)}\n`).join('');
}

/** The hits as a CSV document of `kind` (the prefix's: rows or entries). */
export function hitsCsv(kind: SearchHit['kind'], hits: readonly SearchHit[]): string {
  const union = new HitColumns();
  for (const hit of hits) union.add(hit);
  const columns = union.columns();
  return [hitCsvHeader(kind, columns), ...hits.map((hit) => hitCsvLine(hit, columns))]
    .map((line) => `${line}\n`)
    .join('');
}

/** One line of `--count`: a region's hits. */
export function regionCountLine(region: bigint, hits: number): string {
  return `{"region":"${formatRegionId(region)}","regionU64":"${region}","hits":${hits}}`;
}
