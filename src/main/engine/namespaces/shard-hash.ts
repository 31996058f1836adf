/**
 * Which shard a namespace lives in: FNV-1a 64 of the UTF-8 name, modulo the shard count the
 * meta cell records. Owns the hash and the shard cell's name; never assumes a shard count.
 */

/** The hash names the meta cell may record; only these can be read. */
export const SHARD_HASHES = ['fnv1a64'] as const;
export type ShardHash = (typeof SHARD_HASHES)[number];

const FNV64_OFFSET_BASIS = 0xcbf29ce484222325n;
const FNV64_PRIME = 0x100000001b3n;
const UINT64_MASK = 0xffffffffffffffffn;

const utf8 = new TextEncoder();

export function fnv1a64(text: string): bigint {
  let hash = FNV64_OFFSET_BASIS;
  for (const byte of utf8.encode(text)) {
    hash = ((hash ^ BigInt(byte)) * FNV64_PRIME) & UINT64_MASK;
  }
  return hash;
}

export function shardOfName(name: string, shardCount: number, hash: ShardHash = 'fnv1a64'): number {
  switch (hash) {
    case 'fnv1a64':
      return Number(fnv1a64(name) % BigInt(shardCount));
  }
}

/** `nn`: at least two digits, so the shard cells of up to 100 shards list in numeric order. */
export function shardLabel(shard: number): string {
  return String(shard).padStart(2, '0');
}
