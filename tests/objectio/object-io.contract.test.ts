/** Runs the ObjectIo contract against every backend: memory, a local directory, and real S3. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import { s3Lane } from '../support/s3';
import { objectIoContract } from './object-io-contract';

objectIoContract('memory', async () => new MemoryObjectIo());

const localRoots: string[] = [];
afterAll(async () => {
  await Promise.all(localRoots.map((root) => rm(root, { recursive: true, force: true })));
});
objectIoContract('local directory', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'cairn-objectio-'));
  localRoots.push(root);
  return new LocalObjectIo(root);
});

const lane = s3Lane();
if (lane !== null) {
  afterAll(() => lane.dispose());
  objectIoContract('S3', () => lane.makeIo('contract'));
}
