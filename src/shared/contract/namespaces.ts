/**
 * The namespace registry's procedures and event (spec namespaces.md, console.md "Namespaces").
 * Owns the boundary checks: the limits here match the engine's (a test holds them equal), so
 * junk is refused before it reaches storage, while the engine's finer rules (a leading "/",
 * "..", a config that is not plain JSON) come back as its own typed errors. Never imports the
 * engine: the renderer reads this file too.
 */
import { z } from 'zod';
import { Confirmation, ConnectionId } from './common';
import { procedure } from './procedure';
import { hasUnsafeText, UNSAFE_TEXT_RULE } from '../display-text';

export const NAMESPACE_NAME_MAX_LENGTH = 255;
/** A config's budget as UTF-8 bytes of its JSON. */
export const NAMESPACE_CONFIG_MAX_BYTES = 64 * 1024;
/** The registry holds at most this many shards (the engine's MAX_SHARD_COUNT). */
export const NAMESPACE_MAX_SHARDS = 1000;
const LABEL_MAX_LENGTH = 255;

export const NamespaceName = z
  .string()
  .min(1, 'a name has at least 1 character')
  .max(NAMESPACE_NAME_MAX_LENGTH, `a name has at most ${NAMESPACE_NAME_MAX_LENGTH} characters`)
  .regex(/^[A-Za-z0-9._:/-]+$/, 'a name uses only the characters [A-Za-z0-9._:/-]');

export const NamespaceOrigin = z.enum(['minted', 'explicit']);
export const NamespaceState = z.enum(['active', 'deprecated']);
export const MintOutcome = z.enum(['created', 'touched']);

/** Bytes of `value` as JSON, or null when JSON cannot encode it (a bigint, a cycle). */
export function jsonByteLength(value: unknown): number | null {
  try {
    return new TextEncoder().encode(JSON.stringify(value)).length;
  } catch {
    return null;
  }
}

/** A JSON object within budget; whether every value inside is plain JSON is the engine's check. */
export const NamespaceConfig = z.record(z.string(), z.unknown()).superRefine((config, context) => {
  const bytes = jsonByteLength(config);
  if (bytes === null)
    context.addIssue({ code: 'custom', message: 'config must be encodable as JSON' });
  else if (bytes > NAMESPACE_CONFIG_MAX_BYTES)
    context.addIssue({
      code: 'custom',
      message: `config encodes to ${bytes} bytes, over ${NAMESPACE_CONFIG_MAX_BYTES}`,
    });
});

const PlacementLabel = z
  .string()
  .min(1)
  .max(LABEL_MAX_LENGTH)
  .refine((label) => !hasUnsafeText(label), `a label ${UNSAFE_TEXT_RULE}`);

/** Strict: an unknown field is refused, so a typo never silently means "unplaced". */
export const NamespacePlacement = z
  .object({
    node: PlacementLabel.optional(),
    region: PlacementLabel.optional(),
    tier: PlacementLabel.optional(),
    pinned: z.boolean().optional(),
  })
  .strict();
export type NamespacePlacement = z.infer<typeof NamespacePlacement>;

export const NamespaceRecord = z.object({
  name: z.string(),
  origin: NamespaceOrigin,
  createdAt: z.number(),
  lastSeen: z.number(),
  config: z.record(z.string(), z.unknown()),
  state: NamespaceState,
  placement: NamespacePlacement.nullable(),
});
export type NamespaceRecord = z.infer<typeof NamespaceRecord>;

/** A record as the console lists it: with the shard it lives in, to join with its owner. */
export const ListedNamespace = NamespaceRecord.extend({ shard: z.number() });
export type ListedNamespace = z.infer<typeof ListedNamespace>;

export const ShardOwner = z.object({ nodeId: z.number(), ownerEpoch: z.number() });
export type ShardOwner = z.infer<typeof ShardOwner>;

export const ShardInfo = z.object({
  shard: z.number(),
  owner: ShardOwner.nullable(),
  version: z.number().nullable(),
  records: z.number(),
  /** A shard whose newest version cannot be read: its cell key and why. */
  damage: z.object({ key: z.string(), reason: z.string() }).nullable(),
});
export type ShardInfo = z.infer<typeof ShardInfo>;

const OnConnection = { connectionId: ConnectionId };
const OnNamespace = { ...OnConnection, name: NamespaceName };

export const namespaceProcedures = {
  'namespaces.list': procedure(
    'read',
    'Every namespace record, ascending by createdAt, ties by name, each with its shard',
    z.object(OnConnection).strict(),
    z.array(ListedNamespace),
  ),
  'namespaces.get': procedure(
    'read',
    'One namespace record with its shard, or null when absent',
    z.object(OnNamespace).strict(),
    ListedNamespace.nullable(),
  ),
  'namespaces.register': procedure(
    'operate',
    'Create a namespace if absent (created), else refresh its lastSeen (touched)',
    z.object({ ...OnNamespace, origin: NamespaceOrigin.default('minted') }).strict(),
    MintOutcome,
  ),
  'namespaces.put': procedure(
    'operate',
    'Create an explicit namespace with a config if absent (created), else refresh its lastSeen (touched)',
    z
      .object({
        ...OnNamespace,
        config: NamespaceConfig,
        placement: NamespacePlacement.nullable().default(null),
      })
      .strict(),
    MintOutcome,
  ),
  'namespaces.setPlacement': procedure(
    'operate',
    "Replace a namespace's placement (null clears it); null when the namespace is absent",
    z.object({ ...OnNamespace, placement: NamespacePlacement.nullable() }).strict(),
    NamespaceRecord.nullable(),
  ),
  'namespaces.deprecate': procedure(
    'operate',
    'Move a namespace from active to deprecated (history is kept); null when absent',
    z.object({ ...OnNamespace, confirm: Confirmation.optional() }).strict(),
    NamespaceRecord.nullable(),
  ),
  'namespaces.shards': procedure(
    'read',
    "Every shard's owner, version and record count",
    z.object(OnConnection).strict(),
    z.array(ShardInfo),
  ),
  'namespaces.takeOwnership': procedure(
    'operate',
    'Take a shard for this node, raising its owner epoch: fences the node that owned it',
    z
      .object({
        ...OnConnection,
        shard: z
          .number()
          .int()
          .nonnegative()
          .max(NAMESPACE_MAX_SHARDS - 1),
        confirm: Confirmation.optional(),
      })
      .strict(),
    ShardOwner,
  ),
};

/** Pushed once per record a register or put of this app minted, after it is durable. */
export interface NamespaceCreatedEvent {
  readonly type: 'namespaces.created';
  readonly connectionId: string;
  readonly record: NamespaceRecord;
}

/** A shard as people read it: at least two digits, like its cell `shards/<nn>`. */
export function shardLabel(shard: number): string {
  return String(shard).padStart(2, '0');
}

/**
 * A `NotOwner` error's fields in plain words, for the console and the CLI; null when the
 * fields are not a NotOwner's.
 */
export function explainNotOwner(details: Readonly<Record<string, unknown>>): string | null {
  const { shard, ownerNodeId, ownerEpoch, nodeId } = details;
  if (
    typeof shard !== 'number' ||
    typeof ownerNodeId !== 'number' ||
    typeof ownerEpoch !== 'number'
  )
    return null;
  const self = typeof nodeId === 'number' ? ` This node is ${nodeId}.` : '';
  return (
    `shard ${shardLabel(shard)} is owned by node ${ownerNodeId} (epoch ${ownerEpoch}); take ownership to write here.` +
    `${self} Taking it fences node ${ownerNodeId} from writing to this shard.`
  );
}
