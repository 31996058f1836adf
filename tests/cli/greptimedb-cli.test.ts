/**
 * `cairn wal … --prefix P` on a GreptimeDB prefix, as a user runs it: ls lists both formats,
 * inspect prints the chain and orphans, replay returns every entry with its bytes, verify
 * names a flipped byte's object, and append / obsolete / gc refuse with ReadOnlyFormat and
 * write nothing.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { gtObjectKey, GtPrefixBuilder } from '../greptimedb/gt-encoder';
import { formatEntryId } from '../../src/shared/id-notation';
import { runCairn } from '../support/cairn-cli';

const dir = mkdtempSync(join(tmpdir(), 'cairn-gt-cli-'));
const store = join(dir, 'store');
const PREFIX = 'datanodes/1/epochs/2';
const R1 = makeRegionId(1, 1);
const builder = new GtPrefixBuilder(PREFIX);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  builder.openInstance();
  builder.append([
    [R1, ['one', 'two']],
    [makeRegionId(2, 1), ['x']],
  ]);
  builder.append([[R1, ['three']]]);
  builder.openInstance(4n);
  builder.append([[R1, ['four']]]);
  builder.lateObject(3n, 1n, { seq: 2n, epoch: 1n }, [[R1, ['late']]]);
  await builder.writeTo(new LocalObjectIo(store));
});

function run(...args: string[]) {
  return runCairn(['wal', ...args, '--store', store]);
}

/** Every file of the store with its size and mtime: proves a command wrote nothing. */
function storeState(): string {
  const walk = (path: string): string[] =>
    readdirSync(path, { withFileTypes: true }).flatMap((entry) => {
      const full = join(path, entry.name);
      if (entry.isDirectory()) return walk(full);
      const stat = statSync(full);
      return [`${full}:${stat.size}:${stat.mtimeMs}`];
    });
  return walk(store).sort().join('\n');
}

describe('cairn wal on a GreptimeDB prefix', () => {
  it('ls lists the prefix with its format, from the bucket root or under --root', () => {
    for (const root of [[], ['--root', 'datanodes']]) {
      const listed = run('ls', ...root, '--json');
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual([
        { prefix: PREFIX, format: 'greptimedb-v1', nodeId: '1', generation: 2 },
      ]);
    }
  });

  it('inspect --json prints a summary, and with --chain the chain, orphans and instances', () => {
    const summary = run('inspect', '--prefix', PREFIX, '--json');
    expect(summary.code).toBe(0);
    const brief = JSON.parse(summary.stdout) as Record<string, unknown>;
    expect(brief).not.toHaveProperty('chain');
    expect(brief).toMatchObject({
      format: 'greptimedb-v1',
      tip: { seq: '8', epoch: '8' },
      objects: { chain: 5, orphans: 1, belowBoundary: 0, missing: 0 },
    });
    const result = run('inspect', '--prefix', PREFIX, '--json', '--chain');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as Record<string, unknown> & {
      chain: Array<{ seq: string; epoch: string; key: string; prev: unknown }>;
      orphans: Array<{ seq: string; epoch: string; key: string; size: number; prev: unknown }>;
      instances: Array<{ epoch: string; startSeq: string | null }>;
      regions: Array<{ regionId: string; regionIdU64: string; entries: number }>;
    };
    expect(report.format).toBe('greptimedb-v1');
    expect(report.chain.map((o) => [o.seq, o.epoch])).toEqual([
      ['0', '1'],
      ['1', '1'],
      ['2', '1'],
      ['7', '8'],
      ['8', '8'],
    ]);
    expect(report.orphans).toEqual([
      expect.objectContaining({
        seq: '3',
        epoch: '1',
        key: gtObjectKey(PREFIX, 3n),
        prev: { seq: '2', epoch: '1' },
      }),
    ]);
    expect(report.reclaimBoundary).toBe('0');
    expect(report.instances.map((i) => [i.epoch, i.startSeq])).toEqual([
      ['1', '0'],
      ['8', '7'],
    ]);
    expect(report.regions.map((r) => [r.regionId, r.regionIdU64, r.entries])).toEqual([
      ['1:1', String(R1), 4],
      ['2:1', String(makeRegionId(2, 1)), 1],
    ]);
    const text = run('inspect', '--prefix', PREFIX).stdout;
    expect(text).toMatch(/greptimedb-v1, read-only/);
    expect(text).not.toMatch(/^chain$/m);
    expect(run('inspect', '--prefix', PREFIX, '--chain').stdout).toMatch(/^chain$/m);
  });

  it('replay --raw prints every entry of the chain with its bytes, never the orphan', () => {
    const result = run('replay', '--prefix', `${PREFIX}/`, '--region', '1:1', '--raw', '--data');
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            region: string;
            regionU64: string;
            id: string;
            idU64: string;
            size: number;
            sha256: string;
            data: string;
          },
      );
    const expected = builder.expected(R1);
    expect(lines.map((l) => Buffer.from(l.data, 'base64').toString())).toEqual([
      'one',
      'two',
      'three',
      'four',
    ]);
    expect(lines).toEqual(
      expected.map((e) => ({
        region: '1:1',
        regionU64: String(R1),
        id: formatEntryId(e.id),
        idU64: String(e.id),
        size: e.payload.length,
        sha256: createHash('sha256').update(e.payload).digest('hex'),
        data: Buffer.from(e.payload).toString('base64'),
      })),
    );
  });

  it('append, obsolete and gc refuse with ReadOnlyFormat and write nothing', () => {
    const before = storeState();
    for (const args of [
      ['append', '--count', '1'],
      ['obsolete', '--region', '1:1', '--to', '1', '--take-over'],
      ['gc', '--take-over'],
      ['gc', '--dry-run'],
    ]) {
      const result = run(...args, '--prefix', PREFIX);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toMatch(/^ReadOnlyFormat: .*datanodes\/1\/epochs\/2/);
    }
    expect(storeState()).toBe(before);
  });

  it('bad prefixes are refused with InvalidPrefix (exit 1)', () => {
    for (const prefix of ['../etc', '/abs', 'a//b']) {
      const result = run('inspect', '--prefix', prefix);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^InvalidPrefix: /);
    }
  });

  it('verify names the object whose byte was flipped and exits 1', () => {
    const clean = run('verify', '--prefix', PREFIX, '--json');
    expect(clean.code).toBe(0);
    const file = join(store, gtObjectKey(PREFIX, 8n));
    const bytes = readFileSync(file);
    bytes[60] = (bytes[60] ?? 0) ^ 0xff;
    writeFileSync(file, bytes);
    const result = run('verify', '--prefix', PREFIX, '--json');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      format: string;
      damaged: number;
      objects: Array<{ key: string; ok: boolean; check?: string }>;
    };
    expect(report.format).toBe('greptimedb-v1');
    expect(report.damaged).toBe(1);
    expect(report.objects.filter((o) => !o.ok)).toEqual([
      expect.objectContaining({ key: gtObjectKey(PREFIX, 8n), check: 'object-crc' }),
    ]);
  });
});
