/**
 * Bad input: one shard whose newest version is not valid JSON, or holds a record that
 * breaks the rules, never hides the others. The survey (what `ns ls`, `ns shards` and the
 * Namespaces view read) lists every readable record and names the damaged shard with its
 * key and reason; the strict reads keep failing with Serialization.
 */
import { describe, expect, it } from 'vitest';
import { CasCell } from '../../src/main/engine/cas/cas-cell';
import { versionKey } from '../../src/main/engine/cas/version-key';
import { ObjectNamespaceStore } from '../../src/main/engine/namespaces/object-namespace-store';
import { shardLabel, shardOfName } from '../../src/main/engine/namespaces/shard-hash';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import { tickingClock } from './namespace-store-contract';

const ROOT = 'reg';
const SHARDS = 4;
const NAMES = ['orders', 'billing', 'inventory', 'audit', 'search', 'users', 'events', 'logs'];

async function registryWithDamage(damage: (cell: string, io: MemoryObjectIo) => Promise<void>) {
  const io = new MemoryObjectIo();
  const store = new ObjectNamespaceStore({
    io,
    root: ROOT,
    shardCount: SHARDS,
    clock: tickingClock(),
  });
  for (const name of NAMES) await store.registerNamespace(name, 'minted');
  const broken = shardOfName('orders', SHARDS, 'fnv1a64');
  const cell = `${ROOT}/namespaces/shards/${shardLabel(broken)}`;
  await damage(cell, io);
  const healthy = NAMES.filter((name) => shardOfName(name, SHARDS, 'fnv1a64') !== broken);
  // A fresh store, as another process (the CLI, another window) reads the registry.
  const reader = new ObjectNamespaceStore({ io, root: ROOT });
  return { reader, broken, cell, healthy };
}

describe('a damaged namespace shard', () => {
  it.each([
    [
      'a version that is not JSON',
      async (cell: string, io: MemoryObjectIo) => {
        const latest = (await new CasCell(io, cell).read())!.version;
        await io.putIfAbsent(versionKey(cell, latest + 1), new TextEncoder().encode('{"ns:'));
      },
    ],
    [
      'a record that breaks the rules',
      async (cell: string, io: MemoryObjectIo) => {
        const shard = new CasCell(io, cell);
        const snapshot = (await shard.read())!;
        await shard.update(snapshot.version, { ...snapshot.fields, 'ns:orders': '{"name":1}' });
      },
    ],
  ])('holding %s is named; every other record lists', async (_, damage) => {
    const { reader, broken, cell, healthy } = await registryWithDamage(damage);
    const survey = await reader.surveyNamespaces();
    expect(survey.records.map((record) => record.name).sort()).toEqual([...healthy].sort());
    expect(survey.shards).toHaveLength(SHARDS);
    const damaged = survey.shards.filter((info) => info.damage !== null);
    expect(damaged.map((info) => [info.shard, info.damage?.key])).toEqual([[broken, `${cell}/`]]);
    expect(damaged[0]?.damage?.reason).toMatch(/\S/);
    expect(await reader.describeShards()).toEqual(survey.shards);
    // The strict listing still refuses to pretend the registry is whole.
    await expect(reader.listNamespaces()).rejects.toMatchObject({ code: 'Serialization' });
  });
});
