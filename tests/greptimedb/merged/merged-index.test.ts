/**
 * The local object index keeps a merged-layout object's writer instance (in the link's slots,
 * flagged) so a reopen recalls its writer runs; the date is the listing's, never kept. A
 * merged-layout prefix reopened through the index reads the same runs and verdict.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectGtPrefix } from '../../../src/main/engine/greptimedb/inspect';
import { newGtScanMemo } from '../../../src/main/engine/greptimedb/scan';
import { LocalObjectIo } from '../../../src/main/engine/objectio/local-object-io';
import {
  decodeIndexFile,
  encodeIndexFile,
} from '../../../src/main/services/object-index/index-file';
import { instanceHex, MergedPrefixBuilder } from './merged-encoder';

const IDENTITY = {
  store: 's',
  prefix: 'wal/datanodes/0/epochs/0',
  format: 'greptimedb-v1',
} as const;

describe('the local index of a merged-layout prefix', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-gt-merged-index-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the writer instance of each object, and a chained object its link', () => {
    const objects = [
      {
        seq: 3n,
        size: 120,
        etag: 'e3',
        epoch: 0n,
        link: null,
        reclaimBoundary: 0n,
        writerInstance: instanceHex(7),
        segments: [],
      },
      {
        seq: 4n,
        size: 90,
        etag: 'e4',
        epoch: 2n,
        link: { seq: 3n, epoch: 1n },
        reclaimBoundary: 1n,
        writerInstance: null,
        segments: [],
      },
    ];
    expect(decodeIndexFile(encodeIndexFile(IDENTITY, objects), IDENTITY)).toEqual(objects);
  });

  it('recalls what a first scan read: the same runs on a reopen, nothing read again', async () => {
    const io = new LocalObjectIo(join(dir, 'store'));
    const b = new MergedPrefixBuilder(IDENTITY.prefix);
    b.append([[1n, ['a']]]);
    b.restart().append([[1n, ['b']]]);
    await b.writeTo(io);
    const memo = newGtScanMemo();
    const first = await inspectGtPrefix(io, IDENTITY.prefix, { memo });
    const again = await inspectGtPrefix(io, IDENTITY.prefix, { memo });
    expect(again.merged?.runs).toEqual(first.merged?.runs);
    expect(again.merged?.runs.map((r) => r.writerInstance)).toEqual([
      instanceHex(1),
      instanceHex(2),
    ]);
  });
});
