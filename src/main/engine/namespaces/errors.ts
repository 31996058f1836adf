/**
 * The closed set of errors the namespace registry raises. Each names the namespace and,
 * where one applies, the shard, so a caller (and an operator reading the console) can act
 * on it. Storage failures never escape raw: they arrive wrapped as `Backend`.
 */
import { CairnError, type ErrorDetail } from '../errors';

/** Where an error happened: the namespace (null for whole-registry operations) and its shard. */
export interface NamespaceSite {
  readonly namespace: string | null;
  readonly shard: number | null;
}

function describe(site: NamespaceSite): string {
  const what =
    site.namespace === null ? 'namespace registry' : `namespace ${JSON.stringify(site.namespace)}`;
  return site.shard === null ? what : `${what} (shard ${site.shard})`;
}

function siteDetails(site: NamespaceSite): Record<string, ErrorDetail> {
  return { namespace: site.namespace, shard: site.shard };
}

/** This node does not own the shard: it is fenced and wrote nothing. */
export class NotOwnerError extends CairnError {
  override readonly code = 'NotOwner' as const;
  constructor(
    readonly site: NamespaceSite,
    readonly nodeId: number,
    readonly ownerNodeId: number,
    readonly ownerEpoch: number,
  ) {
    super(
      'NotOwner',
      `${describe(site)} is owned by node ${ownerNodeId} (owner epoch ${ownerEpoch}), not by node ${nodeId}`,
      { ...siteDetails(site), nodeId, ownerNodeId, ownerEpoch },
    );
  }
}

/** Storage failed underneath; `storageCode` says whether it was transient (`Unavailable`). */
export class NamespaceBackendError extends CairnError {
  override readonly code = 'Backend' as const;
  constructor(
    readonly site: NamespaceSite,
    readonly storageCode: string,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      'Backend',
      `storage failed for ${describe(site)}: ${reason}`,
      { ...siteDetails(site), storageCode },
      { cause },
    );
  }
}

/** A stored shard or meta cell could not be decoded: the registry's bytes are not ours. */
export class NamespaceSerializationError extends CairnError {
  override readonly code = 'Serialization' as const;
  constructor(
    readonly site: NamespaceSite,
    readonly reason: string,
  ) {
    super('Serialization', `cannot decode ${describe(site)}: ${reason}`, {
      ...siteDetails(site),
      reason,
    });
  }
}

export type NameRule = 'type' | 'length' | 'charset' | 'leading-slash' | 'dot-dot';

export class InvalidNameError extends CairnError {
  override readonly code = 'InvalidName' as const;
  constructor(
    readonly namespace: string,
    readonly rule: NameRule,
    explanation: string,
  ) {
    super('InvalidName', `invalid namespace name ${JSON.stringify(namespace)}: ${explanation}`, {
      namespace,
      shard: null,
      rule,
    });
  }
}

export type ConfigReason = 'not-an-object' | 'not-json' | 'too-large';

export class InvalidConfigError extends CairnError {
  override readonly code = 'InvalidConfig' as const;
  constructor(
    readonly namespace: string,
    readonly reason: ConfigReason,
    explanation: string,
  ) {
    super(
      'InvalidConfig',
      `invalid config for namespace ${JSON.stringify(namespace)}: ${explanation}`,
      {
        namespace,
        shard: null,
        reason,
      },
    );
  }
}

export class InvalidPlacementError extends CairnError {
  override readonly code = 'InvalidPlacement' as const;
  constructor(
    readonly namespace: string,
    readonly issue: string,
  ) {
    super(
      'InvalidPlacement',
      `invalid placement for namespace ${JSON.stringify(namespace)}: ${issue}`,
      {
        namespace,
        shard: null,
        issue,
      },
    );
  }
}

/** A record given whole (`putNamespace`) or an origin has a field outside its type. */
export class InvalidRecordError extends CairnError {
  override readonly code = 'InvalidRecord' as const;
  constructor(
    readonly namespace: string,
    readonly field: string,
    readonly issue: string,
  ) {
    super(
      'InvalidRecord',
      `invalid record for namespace ${JSON.stringify(namespace)}: ${field}: ${issue}`,
      {
        namespace,
        shard: null,
        field,
        issue,
      },
    );
  }
}

/** A shard index or a shard count outside what the registry can hold. */
export class InvalidShardError extends CairnError {
  override readonly code = 'InvalidShard' as const;
  constructor(
    readonly shard: number,
    explanation: string,
  ) {
    super('InvalidShard', `invalid shard ${shard}: ${explanation}`, {
      namespace: null,
      shard,
      explanation,
    });
  }
}

/** Every compare-and-swap attempt lost to a concurrent writer; nothing of this call was written. */
export class ShardContendedError extends CairnError {
  override readonly code = 'ShardContended' as const;
  constructor(
    readonly site: NamespaceSite,
    readonly attempts: number,
  ) {
    super('ShardContended', `${describe(site)} kept changing: gave up after ${attempts} attempts`, {
      ...siteDetails(site),
      attempts,
    });
  }
}
