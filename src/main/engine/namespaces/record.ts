/**
 * The namespace record: its shape, its limits and the one schema that both types it and
 * checks it. Owns what a record is; never decides how one changes (see `decisions`) nor how
 * it is stored (see `shard-codec`).
 */
import { z } from 'zod';

export const NAME_MAX_LENGTH = 255;
/** Budget of a record's config, as UTF-8 bytes of its canonical JSON. */
export const CONFIG_MAX_BYTES = 64 * 1024;
const LABEL_MAX_LENGTH = 255;

export const NAMESPACE_ORIGINS = ['minted', 'explicit'] as const;
export const NAMESPACE_STATES = ['active', 'deprecated'] as const;

export type NamespaceOrigin = (typeof NAMESPACE_ORIGINS)[number];
export type NamespaceState = (typeof NAMESPACE_STATES)[number];
/** Whether a register / put made the record (drives the loud "created" event) or met it. */
export type MintOutcome = 'created' | 'touched';

export type JsonValue =
  null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };
export type JsonObject = { readonly [key: string]: JsonValue };

const label = z.string().min(1).max(LABEL_MAX_LENGTH);

/** Placement directive; unknown fields are refused so a typo never silently means "unplaced". */
export const placementDirectiveSchema = z
  .object({
    node: label.optional(),
    region: label.optional(),
    tier: label.optional(),
    pinned: z.boolean().optional(),
  })
  .strict();

export const placementSchema = placementDirectiveSchema.nullable();

export type NamespacePlacementDirective = z.infer<typeof placementDirectiveSchema>;
export type NamespacePlacement = NamespacePlacementDirective | null;

const utcMillis = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * The envelope of a record given whole or read back: its plain fields typed here, while
 * `name`, `config` and `placement` are left to `validation`, whose errors name the broken rule.
 */
export const recordEnvelopeSchema = z
  .object({
    name: z.string(),
    origin: z.enum(NAMESPACE_ORIGINS),
    createdAt: utcMillis,
    lastSeen: utcMillis,
    config: z.unknown(),
    state: z.enum(NAMESPACE_STATES),
    placement: z.unknown(),
  })
  .strict();

export interface NamespaceRecord {
  readonly name: string;
  readonly origin: NamespaceOrigin;
  /** UTC milliseconds. */
  readonly createdAt: number;
  /** UTC milliseconds; never moves backwards. */
  readonly lastSeen: number;
  readonly config: JsonObject;
  readonly state: NamespaceState;
  readonly placement: NamespacePlacement;
}

/** Owner of a shard: the node allowed to mutate its records, and the epoch it took it at. */
export interface ShardOwner {
  readonly nodeId: number;
  readonly ownerEpoch: number;
}

export const shardOwnerSchema = z
  .object({
    nodeId: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    ownerEpoch: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  })
  .strict();
