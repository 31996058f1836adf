/**
 * GreptimeDB's rule for an instance's prefix, which Cairn applies to every raw prefix it is
 * given (`--prefix`, a prefix picked in the console): trimmed, one trailing `/` dropped; empty,
 * absolute, or with an empty, `.` or `..` component it is refused with `InvalidPrefix`.
 * Objects then live at `<prefix>/objects/<seq, 20 digits>.wal`. Never touches storage.
 */
import { InvalidPrefixError } from '../wal/errors';

export function normalizePrefix(raw: string): string {
  const trimmed = raw.trim();
  const prefix = trimmed.endsWith('/') ? trimmed.slice(0, -1) : trimmed;
  if (prefix === '') throw new InvalidPrefixError(raw, 'it is empty');
  if (prefix.startsWith('/')) throw new InvalidPrefixError(raw, 'it is absolute');
  for (const part of prefix.split('/')) {
    if (part === '') throw new InvalidPrefixError(raw, 'it has an empty component');
    if (part === '.' || part === '..')
      throw new InvalidPrefixError(raw, `it has a '${part}' component`);
  }
  return prefix;
}

const DATANODE_LAYOUT = /^(?:(.+)\/)?datanodes\/(0|[1-9]\d{0,19})\/epochs\/(0|[1-9]\d{0,19})$/;

export interface GreptimePrefix {
  /** GreptimeDB's `[wal] prefix` (empty when the datanodes sit at the bucket root). */
  readonly walPrefix: string;
  readonly nodeId: bigint;
  /** A u64 in GreptimeDB; shown as a number, so one past 2^53 is not parsed. */
  readonly generation: number;
}

/**
 * Node and generation of a prefix in GreptimeDB's datanode layout
 * (`<wal prefix>/datanodes/<node id>/epochs/<generation>`), or null for any other prefix.
 */
export function parseGreptimePrefix(prefix: string): GreptimePrefix | null {
  const match = DATANODE_LAYOUT.exec(prefix);
  if (match === null) return null;
  const nodeId = BigInt(match[2] ?? '');
  const generation = Number(match[3] ?? '');
  if (nodeId >= 1n << 64n || !Number.isSafeInteger(generation)) return null;
  return { walPrefix: match[1] ?? '', nodeId, generation };
}
