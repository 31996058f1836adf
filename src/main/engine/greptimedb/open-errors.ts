/**
 * The errors only GreptimeDB's merged layout raises: the verdict of a datanode that would not
 * open a prefix, and a prefix holding both GTWALOBJ v1 layouts. Their codes are in the WAL's
 * one catalogue (`WalErrorCode`, wal/errors.ts); callers match on `code` as on any WAL error.
 */
import { WalError } from '../wal/errors';

/**
 * The rules by which a GreptimeDB datanode refuses to open a prefix in the merged layout
 * (greptimedb.md, "The merged layout", Recovery), by stable name.
 */
export type GtOpenRule =
  'structure' | 'header-seq' | 'region-twice' | 'ranges' | 'sequence-exhausted';

/**
 * A prefix in GreptimeDB's merged layout on which its datanode would not start: `key` is the
 * object that decides it (for `ranges`, the later of the two objects), `rule` which rule.
 */
export class GtOpenRefusedError extends WalError {
  override readonly code = 'OpenRefused' as const;
  constructor(
    readonly prefix: string,
    readonly key: string,
    readonly rule: GtOpenRule,
    readonly detail: string,
  ) {
    super(
      'OpenRefused',
      `GreptimeDB would refuse to open ${prefix}: ${rule} at ${key} (${detail})`,
      { prefix, key, rule, detail },
    );
  }
}

/** A GreptimeDB prefix holding objects of both GTWALOBJ v1 layouts: named, never guessed. */
export class MixedLayoutsError extends WalError {
  override readonly code = 'MixedLayouts' as const;
  constructor(
    readonly prefix: string,
    readonly chained: { readonly objects: number; readonly key: string },
    readonly merged: { readonly objects: number; readonly key: string },
  ) {
    super(
      'MixedLayouts',
      `WAL prefix ${prefix} holds both GTWALOBJ v1 layouts: ${chained.objects} chained (54-byte header, ${chained.key} the first) and ${merged.objects} merged (34-byte header, ${merged.key} the first); neither GreptimeDB version opens it as it is`,
      {
        prefix,
        chainedObjects: chained.objects,
        chainedKey: chained.key,
        mergedObjects: merged.objects,
        mergedKey: merged.key,
      },
    );
  }
}
