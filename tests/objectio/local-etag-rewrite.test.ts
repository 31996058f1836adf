/**
 * Issue #47 item 5: a local object rewritten in place with its size, inode and mtime kept (the
 * mtime set back afterwards) gets another ETag, so the local index - keyed on size and ETag -
 * never serves what it summarised of the old bytes. The ctime, which no one can set back, is
 * part of the ETag; a create's ETag is still the one every later call sees.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';

const roots: string[] = [];
afterAll(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));

describe('a local ETag', () => {
  it('changes when the object is rewritten in place with size, inode and mtime kept', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'cairn-etag-'));
    roots.push(root);
    const io = new LocalObjectIo(root, { readThread: null });
    const created = await io.putIfAbsent('p/objects/1', new TextEncoder().encode('sound bytes'));
    expect((await io.head('p/objects/1')).etag).toBe(created.etag);
    const file = path.join(root, 'p', 'objects', '1');
    const reference = path.join(root, 'times');
    execFileSync('touch', ['-r', file, reference]);
    const before = await stat(file, { bigint: true });
    await new Promise((resolve) => setTimeout(resolve, 20)); // A later ctime than the create's.
    const handle = await open(file, 'r+');
    await handle.write(new TextEncoder().encode('rotten bytes'.slice(0, 11)), 0, 11, 0);
    await handle.close();
    execFileSync('touch', ['-m', '-r', reference, file]);
    const after = await stat(file, { bigint: true });
    expect([after.ino, after.size, after.mtimeNs]).toEqual([
      before.ino,
      before.size,
      before.mtimeNs,
    ]);
    expect((await io.head('p/objects/1')).etag).not.toBe(created.etag);
  });
});
