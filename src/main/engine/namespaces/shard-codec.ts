/**
 * How the registry lives in CasCell fields. The meta cell holds `shardCount` and `hash`;
 * a shard cell holds `owner` (JSON `{nodeId, ownerEpoch}`) and one field `ns:<name>` per
 * record (canonical JSON, fixed key order), so one record has one encoding and an update
 * rewrites only the fields it means to. Fields it does not know are carried over untouched.
 * Owns encoding and decoding only; never decides what to write.
 */
import type { CellFields } from '../cas/cell-snapshot';
import { canonicalJson } from './canonical-json';
import { isCairnError } from '../errors';
import { InvalidShardError, NamespaceSerializationError, type NamespaceSite } from './errors';
import { shardOwnerSchema, type NamespaceRecord, type ShardOwner } from './record';
import { SHARD_HASHES, type ShardHash } from './shard-hash';
import { checkRecord } from './validation';

export const DEFAULT_SHARD_COUNT = 16;
export const MAX_SHARD_COUNT = 1000;
export const OWNER_FIELD = 'owner';
const RECORD_FIELD_PREFIX = 'ns:';

export interface RegistryMeta {
  readonly shardCount: number;
  readonly hash: ShardHash;
}

export function checkShardCount(shardCount: number): number {
  if (!Number.isInteger(shardCount) || shardCount < 1 || shardCount > MAX_SHARD_COUNT) {
    throw new InvalidShardError(
      shardCount,
      `a shard count is an integer from 1 to ${MAX_SHARD_COUNT}`,
    );
  }
  return shardCount;
}

/** Field order is fixed so equal states encode to equal bytes. */
function ordered(fields: Record<string, string>): CellFields {
  return Object.fromEntries(
    Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

export function encodeMeta(meta: RegistryMeta): CellFields {
  return ordered({ hash: meta.hash, shardCount: String(meta.shardCount) });
}

const REGISTRY_SITE: NamespaceSite = { namespace: null, shard: null };

export function decodeMeta(fields: CellFields): RegistryMeta {
  const hash = SHARD_HASHES.find((known) => known === fields.hash);
  if (hash === undefined) {
    throw new NamespaceSerializationError(
      REGISTRY_SITE,
      `meta names hash ${JSON.stringify(fields.hash)}, not one of ${SHARD_HASHES.join(', ')}`,
    );
  }
  const shardCount = Number(fields.shardCount);
  if (
    fields.shardCount !== String(shardCount) ||
    !Number.isInteger(shardCount) ||
    shardCount < 1 ||
    shardCount > MAX_SHARD_COUNT
  ) {
    throw new NamespaceSerializationError(
      REGISTRY_SITE,
      `meta shardCount ${JSON.stringify(fields.shardCount)} is not 1 to ${MAX_SHARD_COUNT}`,
    );
  }
  return { shardCount, hash };
}

export function recordField(name: string): string {
  return RECORD_FIELD_PREFIX + name;
}

/** Canonical JSON with the record's keys in declaration order and its config key-ordered. */
export function encodeRecord(record: NamespaceRecord): string {
  const { name, origin, createdAt, lastSeen, config, state, placement } = record;
  return canonicalJson({ name, origin, createdAt, lastSeen, config, state, placement });
}

function parseJson(text: string, site: NamespaceSite, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new NamespaceSerializationError(site, `${what} is not JSON`);
  }
}

export function decodeRecord(
  text: string,
  site: NamespaceSite & { namespace: string },
): NamespaceRecord {
  let record: NamespaceRecord;
  try {
    record = checkRecord(parseJson(text, site, 'record'));
  } catch (error) {
    if (error instanceof NamespaceSerializationError || !isCairnError(error)) throw error;
    throw new NamespaceSerializationError(site, `stored record breaks a rule: ${error.message}`);
  }
  if (record.name !== site.namespace) {
    throw new NamespaceSerializationError(
      site,
      `field holds the record of ${JSON.stringify(record.name)}`,
    );
  }
  return record;
}

export function encodeOwner(owner: ShardOwner): string {
  return JSON.stringify({ nodeId: owner.nodeId, ownerEpoch: owner.ownerEpoch });
}

export function decodeOwner(fields: CellFields, site: NamespaceSite): ShardOwner {
  const text = fields[OWNER_FIELD];
  if (text === undefined) throw new NamespaceSerializationError(site, 'shard has no owner field');
  const parsed = shardOwnerSchema.safeParse(parseJson(text, site, 'owner'));
  if (!parsed.success)
    throw new NamespaceSerializationError(site, `owner field ${text} is not {nodeId, ownerEpoch}`);
  return parsed.data;
}

/** The record stored under `name` in a shard's fields, or null. */
export function recordIn(fields: CellFields, name: string, shard: number): NamespaceRecord | null {
  const text = fields[recordField(name)];
  return text === undefined ? null : decodeRecord(text, { namespace: name, shard });
}

/** Every record of a shard, in field order. */
export function recordsIn(fields: CellFields, shard: number): NamespaceRecord[] {
  return Object.entries(fields)
    .filter(([field]) => field.startsWith(RECORD_FIELD_PREFIX))
    .map(([field, text]) =>
      decodeRecord(text, { namespace: field.slice(RECORD_FIELD_PREFIX.length), shard }),
    );
}

/** The shard's fields with one record written in. */
export function withRecord(fields: CellFields, record: NamespaceRecord): CellFields {
  return ordered({ ...fields, [recordField(record.name)]: encodeRecord(record) });
}

/** The shard's fields with a new owner. */
export function withOwner(fields: CellFields, owner: ShardOwner): CellFields {
  return ordered({ ...fields, [OWNER_FIELD]: encodeOwner(owner) });
}
