/**
 * A raw WAL prefix resolved to what reads or writes it: Cairn's own prefixes
 * (`<root>/nodes/<node>/generations/<generation>`, opened by a WAL configuration) or a
 * GreptimeDB prefix, which Cairn only reads. The format comes from the objects' magic; a
 * prefix with no object yet is Cairn's when it has Cairn's layout. A write aimed at a
 * GreptimeDB prefix is refused here with `ReadOnlyFormat`, before anything is written.
 */
import { GT_FORMAT } from '../greptimedb/layout';
import { normalizePrefix } from '../greptimedb/prefix';
import type { ObjectIo } from '../objectio/object-io';
import type { ObjectStoreWalConfigInput } from '../wal/config';
import { InvalidPrefixError, ReadOnlyFormatError } from '../wal/errors';
import { CAIRN_FORMAT, detectFormat, type WalFormat } from './format';

export type ReadTarget =
  | {
      readonly format: typeof CAIRN_FORMAT;
      readonly prefix: string;
      readonly config: ObjectStoreWalConfigInput;
    }
  | { readonly format: typeof GT_FORMAT; readonly prefix: string };

const CAIRN_LAYOUT = /^(.+)\/nodes\/(0|[1-9]\d{0,19})\/generations\/(0|[1-9]\d{0,9})$/;
const CAIRN_LAYOUT_RULE = 'a Cairn prefix is <root>/nodes/<node>/generations/<generation>';

export interface CairnPrefix {
  readonly root: string;
  readonly nodeId: bigint;
  readonly generation: number;
}

/** Root, node and generation of a prefix in Cairn's layout, or null for any other prefix. */
export function parseCairnPrefix(prefix: string): CairnPrefix | null {
  const match = CAIRN_LAYOUT.exec(prefix);
  if (match === null) return null;
  const nodeId = BigInt(match[2] ?? '');
  const generation = Number(match[3] ?? '');
  if (nodeId >= 1n << 64n || generation > 0xffff_ffff) return null;
  return { root: match[1] ?? '', nodeId, generation };
}

/** The WAL configuration of a prefix in Cairn's layout, or null for any other prefix. */
export function cairnConfigOf(
  prefix: string,
  extra: Partial<ObjectStoreWalConfigInput> = {},
): ObjectStoreWalConfigInput | null {
  const parsed = parseCairnPrefix(prefix);
  return parsed === null ? null : { ...extra, ...parsed };
}

/** The normalised prefix and the format its objects are in (null: no object yet). */
async function formatAt(
  io: ObjectIo,
  rawPrefix: string,
): Promise<{ prefix: string; format: WalFormat | null }> {
  const prefix = normalizePrefix(rawPrefix);
  return { prefix, format: await detectFormat(io, prefix) };
}

export async function resolveReadTarget(
  io: ObjectIo,
  rawPrefix: string,
  extra: Partial<ObjectStoreWalConfigInput> = {},
): Promise<ReadTarget> {
  const { prefix, format } = await formatAt(io, rawPrefix);
  if (format === GT_FORMAT) return { format, prefix };
  const config = cairnConfigOf(prefix, extra);
  if (config !== null) return { format: CAIRN_FORMAT, prefix, config };
  // No object yet and not Cairn's layout: shown as an empty GreptimeDB prefix, never written.
  if (format === null) return { format: GT_FORMAT, prefix };
  throw new InvalidPrefixError(prefix, `its objects are Cairn's, but ${CAIRN_LAYOUT_RULE}`);
}

/** The configuration a writer opens `rawPrefix` with; `ReadOnlyFormat` for GreptimeDB's. */
export async function resolveWriteTarget(
  io: ObjectIo,
  rawPrefix: string,
  extra: Partial<ObjectStoreWalConfigInput> = {},
): Promise<ObjectStoreWalConfigInput> {
  const { prefix, format } = await formatAt(io, rawPrefix);
  if (format === GT_FORMAT) throw new ReadOnlyFormatError(prefix, GT_FORMAT);
  const config = cairnConfigOf(prefix, extra);
  if (config === null) throw new InvalidPrefixError(prefix, CAIRN_LAYOUT_RULE);
  return config;
}
