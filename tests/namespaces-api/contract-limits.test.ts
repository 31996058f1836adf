/**
 * The contract's limits are the engine's: one fact, checked here because the contract (read
 * by the renderer too) cannot import the engine.
 */
import { describe, expect, it } from 'vitest';
import { CONFIG_MAX_BYTES, NAME_MAX_LENGTH } from '../../src/main/engine/namespaces';
import { MAX_SHARD_COUNT } from '../../src/main/engine/namespaces/shard-codec';
import {
  explainNotOwner,
  NAMESPACE_CONFIG_MAX_BYTES,
  NAMESPACE_MAX_SHARDS,
  NAMESPACE_NAME_MAX_LENGTH,
  NamespaceName,
  shardLabel,
} from '../../src/shared/contract/namespaces';
import { shardLabel as engineShardLabel } from '../../src/main/engine/namespaces/shard-hash';

describe('the namespace contract', () => {
  it('has the engine limits', () => {
    expect(NAMESPACE_NAME_MAX_LENGTH).toBe(NAME_MAX_LENGTH);
    expect(NAMESPACE_CONFIG_MAX_BYTES).toBe(CONFIG_MAX_BYTES);
    expect(NAMESPACE_MAX_SHARDS).toBe(MAX_SHARD_COUNT);
    for (const shard of [0, 3, 15, 99, 999])
      expect(shardLabel(shard)).toBe(engineShardLabel(shard));
  });

  it('accepts every name character the engine accepts', () => {
    expect(NamespaceName.safeParse('Az09._:/-').success).toBe(true);
    expect(NamespaceName.safeParse('n'.repeat(255)).success).toBe(true);
  });

  it('explains a NotOwner in plain words, and nothing else', () => {
    expect(
      explainNotOwner({ namespace: 'a', shard: 3, nodeId: 0, ownerNodeId: 2, ownerEpoch: 4 }),
    ).toBe(
      'shard 03 is owned by node 2 (epoch 4); take ownership to write here. This node is 0. Taking it fences node 2 from writing to this shard.',
    );
    expect(explainNotOwner({ namespace: 'a', shard: null })).toBeNull();
  });
});
