/**
 * GreptimeDB's merged GTWALOBJ v1 layout (34-byte writer-instance header), told apart from the
 * chained one by the spec's checks: its objects are named, verified and laid out part by part,
 * never called corrupt; a prefix of them recovers by GreptimeDB's rules (an object of no
 * segment refuses the open, naming it), replays, and reads from the CLI; a prefix holding both
 * layouts is `MixedLayouts`; an object that fits neither layout stays corrupt.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeGtObject } from '../../src/main/engine/greptimedb/describe';
import { inspectGtPrefix } from '../../src/main/engine/greptimedb/inspect';
import { openGtReadOnly } from '../../src/main/engine/greptimedb/read-only-log';
import { verifyGtPrefix } from '../../src/main/engine/greptimedb/verify';
import {
  decodeGtObjectAnyLayout,
  gtLayoutOf,
} from '../../src/main/engine/greptimedb/writer-instance';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { CorruptObjectError } from '../../src/main/engine/wal/errors';
import { GtOpenRefusedError } from '../../src/main/engine/greptimedb/open-errors';
import { runCairn } from '../support/cairn-cli';
import { encodeGtObject, encodeGtWriterInstanceObject, gtObjectKey, gtVector } from './gt-encoder';

const INSTANCE = Uint8Array.from({ length: 16 }, (_, i) => 0xa0 + i);
const PREFIX = 'datanodes/9/wal';
const REGION = (1n << 32n) | 1n;

function writerObject(seq: bigint, payloads: string[]): Uint8Array {
  return encodeGtWriterInstanceObject({
    seq,
    writerInstance: INSTANCE,
    segments:
      payloads.length === 0
        ? []
        : [
            {
              regionId: REGION,
              entries: payloads.map((p, i) => ({
                id: (seq << 20n) | BigInt(i + 1),
                payload: Buffer.from(p),
              })),
            },
          ],
  });
}

function flipped(bytes: Uint8Array, at: number): Uint8Array {
  const copy = Uint8Array.from(bytes);
  copy[at] = copy[at]! ^ 0x01;
  return copy;
}

describe('telling the two GTWALOBJ v1 layouts apart', () => {
  it('names each sound object by its layout, with or without segments', () => {
    expect(gtLayoutOf(gtVector())).toBe('chain-header');
    expect(gtLayoutOf(writerObject(3n, ['a', 'bb']))).toBe('writer-instance-header');
    expect(gtLayoutOf(writerObject(4n, []))).toBe('writer-instance-header');
    expect(writerObject(4n, [])).toHaveLength(70);
    expect(decodeGtObjectAnyLayout(writerObject(3n, ['a']), gtObjectKey(PREFIX, 3n))).toBe(
      'writer-instance-header',
    );
  });

  it('keeps an object that fits neither layout corrupt, naming the check that fails', () => {
    const damaged54 = flipped(gtVector(), 20);
    expect(gtLayoutOf(damaged54)).toBeNull();
    expect(() => decodeGtObjectAnyLayout(damaged54, gtObjectKey('p', 7n))).toThrow(
      expect.objectContaining({ check: 'header-crc' }),
    );
    const damaged34 = flipped(writerObject(3n, ['abc']), 50);
    expect(gtLayoutOf(damaged34)).toBeNull();
    expect(() => decodeGtObjectAnyLayout(damaged34, gtObjectKey('p', 3n))).toThrow(
      CorruptObjectError,
    );
  });

  it('lays a writer-instance object out part by part with each CRC', () => {
    const parts = describeGtObject(writerObject(3n, ['a', 'bb']), gtObjectKey(PREFIX, 3n));
    expect(parts).toMatchObject({
      layout: 'GTWALOBJ v1, writer-instance header',
      header: {
        magicOk: true,
        version: 1,
        seq: 3n,
        epoch: null,
        crcOk: null,
        writerInstance: Buffer.from(INSTANCE).toString('hex'),
      },
      segments: [{ regionId: REGION, offset: 34, entries: 2, crcOk: true }],
      footer: { crcOk: true, count: 1 },
      trailer: { magicOk: true, objectCrcOk: true },
      failure: null,
    });
    expect(describeGtObject(gtVector(), gtObjectKey('p', 7n))).toMatchObject({
      layout: 'GTWALOBJ v1',
      header: { epoch: 3n, crcOk: true, writerInstance: null },
      failure: null,
    });
  });
});

describe('a prefix of writer-instance objects', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-gt-layout-'));
  const store = join(dir, 'store');
  const io = new LocalObjectIo(store);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeAll(async () => {
    await io.putIfAbsent(gtObjectKey(PREFIX, 1n), writerObject(1n, []));
    await io.putIfAbsent(gtObjectKey(PREFIX, 2n), writerObject(2n, ['x', 'yy']));
    await io.putIfAbsent(gtObjectKey(PREFIX, 3n), writerObject(3n, ['zzz']));
  });

  it('verifies every object sound, each named with its layout', async () => {
    const report = await verifyGtPrefix(io, PREFIX);
    expect(report.damaged).toBe(0);
    expect(report.objects.map((o) => [o.ok, o.layout])).toEqual([
      [true, 'GTWALOBJ v1, writer-instance header'],
      [true, 'GTWALOBJ v1, writer-instance header'],
      [true, 'GTWALOBJ v1, writer-instance header'],
    ]);
  });

  it('refuses the open on an object of no segment, naming it, never a corruption', async () => {
    const report = await inspectGtPrefix(io, PREFIX);
    expect(report.layout).toBe('merged');
    expect(report.failure?.code).toBe('OpenRefused');
    expect(report.merged?.refusals[0]).toMatchObject({
      rule: 'structure',
      key: gtObjectKey(PREFIX, 1n),
    });
    expect(report.damaged).toEqual([]);
    expect(report.chain.map((o) => [o.seq, o.entries])).toEqual([
      [1n, 0],
      [2n, 2],
      [3n, 1],
    ]);
    await expect(openGtReadOnly(io, PREFIX)).rejects.toBeInstanceOf(GtOpenRefusedError);
  });

  it('reads the same from the CLI: verify exits 0 naming the layout, inspect and replay exit 1', () => {
    const flags = ['--dir', store, '--prefix', PREFIX];
    const verified = runCairn(['wal', 'verify', ...flags]);
    expect(verified.code).toBe(0);
    expect(verified.stdout.match(/GTWALOBJ v1, writer-instance header/g)).toHaveLength(3);
    const inspected = runCairn(['wal', 'inspect', ...flags]);
    expect(inspected.code).toBe(1);
    expect(inspected.stdout.split('\n')[0]).toBe(
      `GREPTIMEDB WOULD REFUSE TO OPEN  structure at ${gtObjectKey(PREFIX, 1n)}: the footer holds no segment`,
    );
    expect(inspected.stdout).not.toContain('CorruptObject');
    const replayed = runCairn(['wal', 'replay', ...flags, '--region', '1:1']);
    expect(replayed.code).toBe(1);
    expect(replayed.stderr).toContain('OpenRefused');
  });

  it('a 54-byte object beside them makes a prefix of both layouts, named as such', async () => {
    const key = gtObjectKey('mixed/wal', 1n);
    await io.putIfAbsent(
      key,
      encodeGtObject({ seq: 1n, epoch: 1n, prev: null, reclaimBoundary: 0n, segments: [] }),
    );
    await io.putIfAbsent(gtObjectKey('mixed/wal', 2n), writerObject(2n, ['x']));
    const report = await inspectGtPrefix(io, 'mixed/wal');
    expect(report.layout).toBe('mixed');
    expect(report.failure?.code).toBe('MixedLayouts');
    expect(report.failure?.message).toContain(key);
  });
});
